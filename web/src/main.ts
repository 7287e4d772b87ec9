// The web table: draws the state the server sends (the seat's projection, or the
// public table for a spectator) and reports what the player chose (an action id
// with the version it was chosen at). It knows no rules: what may be played is
// what the projection lists.

import { Link } from "./net";
import type { ActionInfo, Game, SeatInfo, ServerFrame, TableState, You } from "./types";

const SUITS: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES: Record<string, string> = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES: Record<string, string> = { A: "ace", K: "king", Q: "queen", J: "jack" };
const PHASES: Record<string, string> = {
  deal: "Dealing",
  ruff: "The ruff",
  discard: "Laying out",
  can_ye: "Honours",
  bidding: "Bidding",
  name: "Naming trumps",
  kitty: "The kitty",
  auction: "Auction",
  trumps: "Naming trumps",
  contest: "The contest",
  play: "Play",
  score: "Scoring",
  claim: "A claim",
  concede: "A concession",
  over: "Game over",
};

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

function byId(id: string): HTMLElement {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`#${id} missing`);
  return node;
}

export function cardName(code: string): string {
  if (code === "LJ") return "little joker";
  if (code === "BJ") return "big joker";
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  return `${RANK_NAMES[rank] ?? rank} of ${SUIT_NAMES[suit] ?? suit}`;
}

class TableView {
  private state: TableState | null = null;
  private selected = new Set<string>();
  private confirming: ActionInfo | null = null;
  private showLast = false;
  private showClaims = false;
  private fourColour = localStorage.getItem("rh.deck") === "4";
  private sentAt = -1;
  private seat: number | null = null;
  private link: Link;

  constructor() {
    this.link = new Link({
      frame: (frame) => this.frame(frame),
      status: (text, ok) => this.status(text, ok),
      signedIn: (who) => {
        byId("who").textContent = who.name;
        byId("who").dataset.user = who.userId;
      },
    });
    const deck = byId("deck") as HTMLInputElement;
    deck.checked = this.fourColour;
    deck.addEventListener("change", () => {
      this.fourColour = deck.checked;
      localStorage.setItem("rh.deck", deck.checked ? "4" : "2");
      this.draw();
    });
    byId("last").addEventListener("click", () => {
      this.showLast = !this.showLast;
      this.draw();
    });
    window.setInterval(() => this.tick(), 1000);
    void this.link.start();
  }

  // ------------------------------------------------------------ frames

  private frame(frame: ServerFrame): void {
    switch (frame.type) {
      case "welcome":
        this.sentAt = -1; // a new connection: whatever was sent before is answered or lost
        byId("who").textContent = frame.name;
        byId("who").dataset.user = frame.user_id;
        break;
      case "state":
        if (this.state?.version !== frame.state?.version) {
          this.selected.clear();
          this.confirming = null;
        }
        this.state = frame.state;
        this.seat = frame.seat;
        this.draw();
        break;
      case "outcome":
        if (frame.kind !== "applied") {
          this.say(frame.text || "That was not accepted.");
          this.sentAt = -1;
          this.draw();
        }
        break;
      case "error":
        this.say(frame.text);
        this.sentAt = -1;
        this.draw();
        break;
    }
  }

  private say(text: string): void {
    byId("say").textContent = text;
  }

  private status(text: string, ok: boolean): void {
    const node = byId("link");
    node.textContent = text;
    node.className = ok ? "ok" : "bad";
  }

  private send(actions: string[]): void {
    const state = this.state;
    const you = state?.you;
    if (!state || !you) return;
    this.sentAt = state.version;
    this.say("");
    this.link.send({ type: "act", version: state.version, seat: you.seat, actions });
    this.draw(); // nothing is live again until the table answers
  }

  private lobby(verb: string): void {
    this.say("");
    this.link.send({ type: "lobby", verb });
  }

  // ------------------------------------------------------------ drawing

  private card(code: string, extra: Record<string, string> = {}): HTMLImageElement {
    return el("img", {
      src: `cards/${this.fourColour ? 4 : 2}/${code}.svg`,
      alt: cardName(code),
      class: "card",
      draggable: "false",
      ...extra,
    });
  }

  private names(seats: SeatInfo[]): string[] {
    return seats.map((s, i) =>
      s.occupant === "empty" ? `Seat ${i + 1} (empty)` : (s.name ?? `Seat ${i + 1}`),
    );
  }

  /** A seat's name without an AI's level ("Hoyle, AI hard" -> "Hoyle"): for tight places. */
  private short(name: string): string {
    const cut = name.indexOf(", AI");
    return cut > 0 ? name.slice(0, cut) : name;
  }

  /** Where seat ``seat`` sits on the screen: you at the bottom, clockwise on. */
  private place(seat: number, n: number, bottom: number): string {
    const rel = (seat - bottom + n) % n;
    if (n === 2) return rel === 0 ? "south" : "north";
    if (n === 3) return ["south", "west", "east"][rel] ?? "north";
    return ["south", "west", "north", "east"][rel] ?? "north";
  }

  draw(): void {
    const state = this.state;
    const main = byId("table");
    const focused = document.activeElement?.getAttribute("data-card") ?? null;
    main.replaceChildren();
    main.dataset.version = state === null ? "" : String(state.version);
    main.dataset.status = state === null ? "none" : state.status;
    if (state === null) {
      byId("title").textContent = "Ruff and Honours";
      main.append(
        el(
          "p",
          { class: "empty" },
          "There is no table in this channel yet. Open one with /ruff new — it shows here at once.",
        ),
      );
      byId("lastbox").replaceChildren();
      return;
    }
    byId("title").textContent = `${state.game_id} · table #${state.table_id}`;
    if (state.status === "lobby" || state.game === null) {
      main.append(this.drawLobby(state));
      byId("lastbox").replaceChildren();
      return;
    }
    const game = state.game;
    const you = state.you ?? null;
    const n = state.seats.length;
    const bottom = you?.seat ?? 0;
    const names = this.names(state.seats);
    main.append(this.drawScores(state, game, names));
    const felt = el("section", { class: `felt seats${n}`, "aria-label": "The table" });
    for (const seat of state.seats) {
      felt.append(this.drawSeat(state, game, seat, names, this.place(seat.seat, n, bottom), you));
    }
    felt.append(this.drawTrick(game, n, bottom, names));
    main.append(felt);
    main.append(this.drawTurn(state, game, names, you));
    if (you !== null) main.append(this.drawYou(state, game, you));
    else main.append(el("p", { class: "watching" }, "You are watching: the public table only."));
    if (state.status === "finished" || game.winner !== null) main.append(this.drawEnd(game, state, names));
    this.drawLast(game, names);
    this.tick(); // the deadline's seconds at once, not a second later
    if (focused !== null) {
      const again = main.querySelector<HTMLElement>(`[data-card="${focused}"]`);
      again?.focus();
    }
  }

  private drawLobby(state: TableState): HTMLElement {
    const box = el("section", { class: "lobby", "aria-label": "The lobby" });
    box.append(el("h2", {}, "Waiting to start"));
    const list = el("ol", { class: "lobby-seats" });
    state.seats.forEach((seat, i) => {
      const who = seat.occupant === "empty" ? "— empty —" : (seat.name ?? "?");
      list.append(el("li", { "data-seat": String(i) }, who));
    });
    box.append(list);
    const mine = this.seat !== null;
    const open = state.lobby?.open_seats.length ?? 0;
    const buttons = el("div", { class: "actions" });
    const add = (label: string, verb: string): void => {
      const b = el("button", { type: "button", "data-verb": verb }, label);
      b.addEventListener("click", () => this.lobby(verb));
      buttons.append(b);
    };
    if (!mine && open > 0) add("Join the table", "join");
    if (mine && open > 0) {
      add("Add AI (easy)", "ai-easy");
      add("Add AI (normal)", "ai-normal");
      add("Add AI (hard)", "ai-hard");
    }
    if (mine) add(open > 0 ? "Start (AI fills the empty seats)" : "Start", "start");
    if (mine && state.lobby?.creator_id !== byId("who").dataset.user) add("Leave", "leave");
    box.append(buttons);
    return box;
  }

  private sideNames(state: TableState, game: Game, names: string[], count: number): string[] {
    const n = state.seats.length;
    if (count === n) return names.map((name) => this.short(name));
    // partnerships: the scoring side i is seats i and i + 2
    return Array.from({ length: count }, (_, side) =>
      names.filter((_, seat) => seat % count === side).map((n) => this.short(n)).join(" & "),
    ).map((label, i) => (game.sides.length ? label : `Side ${i + 1}`));
  }

  private drawScores(state: TableState, game: Game, names: string[]): HTMLElement {
    const bar = el("section", { class: "scores", "aria-label": "Scores" });
    const sides = this.sideNames(state, game, names, game.scores.length);
    game.scores.forEach((score, i) => {
      const won = game.games_won[i] ?? 0;
      bar.append(
        el(
          "div",
          { class: "score" },
          el("span", { class: "side" }, sides[i] ?? `Side ${i + 1}`),
          el("strong", {}, ` ${score}`),
          won ? el("span", { class: "games" }, ` · games ${won}`) : "",
        ),
      );
    });
    const info: string[] = [`Game ${game.game_no}, deal ${game.deal_no}`, `to ${game.target}`];
    info.push(game.trump ? `Trumps ${SUITS[game.trump] ?? game.trump} ${SUIT_NAMES[game.trump] ?? ""}` : "No trumps yet");
    if (game.contract?.name) info.push(`Contract: ${game.contract.name}`);
    info.push(PHASES[game.phase] ?? game.phase);
    bar.append(el("div", { class: "info" }, info.join(" · ")));
    return bar;
  }

  private drawSeat(
    state: TableState,
    game: Game,
    seat: SeatInfo,
    names: string[],
    where: string,
    you: You | null,
  ): HTMLElement {
    const i = seat.seat;
    const sideOf = game.sides[i] ?? 0;
    const tricks = game.tricks[sideOf] ?? 0;
    const turn = game.to_act === i;
    const box = el("div", {
      class: `seat ${where}${turn ? " turn" : ""}`,
      "data-seat": String(i),
      "aria-label": `${names[i]}${turn ? ", to play" : ""}`,
    });
    const badges: string[] = [];
    if (game.dealer === i) badges.push("dealer");
    if (seat.occupant === "ai") badges.push(`AI ${seat.ai ?? ""}`.trim());
    if (seat.away) badges.push("AI playing for them");
    if (you !== null && you.partner === i) badges.push("partner");
    box.append(
      el("div", { class: "name" }, `${turn ? "▶ " : ""}${this.short(names[i] ?? "")}`),
      el(
        "div",
        { class: "meta" },
        `${game.hand_sizes[i] ?? 0} cards · tricks ${tricks}${badges.length ? ` · ${badges.join(", ")}` : ""}`,
      ),
    );
    const exposed = game.exposed.find((e) => e.seat === i);
    if (exposed && (you === null || you.seat !== i)) {
      const row = el("div", { class: "mini", "aria-label": `${names[i]}'s hand, face up` });
      exposed.cards.forEach((c) => row.append(this.card(c)));
      box.append(row);
    }
    const claim = game.notes.claim as { seat: number; hand: string[]; tricks: number } | undefined;
    if (claim && claim.seat === i && (you === null || you.seat !== i)) {
      const row = el("div", { class: "mini", "aria-label": `${names[i]}'s hand, shown with the claim` });
      claim.hand.forEach((c) => row.append(this.card(c)));
      box.append(row);
    }
    const layouts = game.layouts?.[i];
    if (layouts && (you === null || you.seat !== i)) box.append(this.drawLayouts(layouts, null, names[i] ?? ""));
    const honours = game.shown_honours.filter((h) => h.seat === i);
    if (honours.length) {
      const row = el("div", { class: "mini", "aria-label": `${names[i]} showed honours` });
      honours.forEach((h) => row.append(this.card(h.card)));
      box.append(row);
    }
    if (state.status === "active" && game.deadline && game.deadline.seat === i) {
      box.append(el("div", { class: "clock", "data-at": String(game.deadline.at) }, ""));
    }
    return box;
  }

  private drawLayouts(
    layouts: { up: string | null; down: number; fresh: boolean }[],
    playable: Map<string, string> | null,
    who: string,
  ): HTMLElement {
    const row = el("div", { class: "layouts", role: "group", "aria-label": `${who} layout` });
    for (const pos of layouts) {
      const pile = el("div", { class: "pile" });
      if (pos.up !== null) {
        const id = playable?.get(pos.up);
        if (id !== undefined) {
          const b = el("button", {
            type: "button",
            class: "cardbtn legal",
            "data-card": pos.up,
            "aria-label": `Play ${cardName(pos.up)} from your layout`,
          });
          b.append(this.card(pos.up));
          b.addEventListener("click", () => this.send([id]));
          pile.append(b);
        } else {
          pile.append(this.card(pos.up, { class: `card${pos.fresh ? " fresh" : ""}` }));
        }
      }
      if (pos.down > 0) pile.append(el("span", { class: "down" }, `+${pos.down}`));
      row.append(pile);
    }
    return row;
  }

  private drawTrick(game: Game, n: number, bottom: number, names: string[]): HTMLElement {
    const centre = el("div", { class: "trick", "aria-label": "The trick", role: "group" });
    const cards = game.trick?.cards ?? [];
    for (const played of cards) {
      const where = this.place(played.seat, n, bottom);
      centre.append(
        this.card(played.card, {
          class: `card at-${where}`,
          alt: `${names[played.seat] ?? ""}: ${cardName(played.card)}`,
        }),
      );
    }
    if (game.turn_up && cards.length === 0 && game.phase !== "play") {
      centre.append(el("div", { class: "turnup" }, this.card(game.turn_up.card), el("span", {}, "turned up")));
    }
    if (game.kitty.length) {
      const row = el("div", { class: "mini", "aria-label": "The kitty" });
      game.kitty.forEach((c) => row.append(this.card(c)));
      centre.append(row);
    }
    return centre;
  }

  private drawTurn(state: TableState, game: Game, names: string[], you: You | null): HTMLElement {
    const line = el("p", { class: "turnline", id: "turnline" });
    if (state.status !== "active") {
      line.textContent = state.status === "finished" ? "The game is over." : "This table was cancelled.";
    } else if (you?.my_turn) {
      line.textContent = "Your turn";
      line.classList.add("mine");
    } else if (game.to_act !== null) {
      line.textContent = `Waiting for ${names[game.to_act] ?? "?"}`;
    }
    if (game.deadline && state.status === "active") {
      line.append(" ", el("span", { class: "clock", "data-at": String(game.deadline.at) }, ""));
    }
    const calls = [...(game.contract?.auction ?? []), ...game.calls].slice(-4);
    if (calls.length) {
      line.append(
        el("span", { class: "calls" }, ` · ${calls.map((c) => `${names[c.seat] ?? "?"}: ${c.call}`).join(", ")}`),
      );
    }
    return line;
  }

  private drawYou(state: TableState, game: Game, you: You): HTMLElement {
    const box = el("section", { class: "you", "aria-label": "Your hand and choices" });
    const plays = new Map<string, string>();
    const discards = new Map<string, string>();
    const others: ActionInfo[] = [];
    for (const a of you.actions) {
      if (a.kind === "legal" && a.card !== null && a.verb === "play") plays.set(a.card, a.id);
      else if (a.kind === "legal" && a.card !== null && a.verb === "discard") discards.set(a.card, a.id);
      else others.push(a);
    }
    const layingOut = discards.size > 0;
    const need = Math.max(1, you.to_lay_out);
    const buttons = el("div", { class: "actions", role: "group", "aria-label": "Your choices" });
    const waiting = this.sentAt === state.version;
    if (waiting) {
      buttons.append(el("span", { class: "ask" }, "…"));
    } else if (this.confirming !== null) {
      const a = this.confirming;
      buttons.append(el("span", { class: "ask" }, `${a.label}?`));
      const yes = el("button", { type: "button", class: "primary", "data-confirm": a.id }, "Confirm");
      yes.addEventListener("click", () => {
        this.confirming = null;
        this.send([a.id]);
      });
      const no = el("button", { type: "button" }, "Cancel");
      no.addEventListener("click", () => {
        this.confirming = null;
        this.draw();
      });
      buttons.append(yes, no);
    } else {
      for (const a of others.filter((o) => o.kind !== "claim")) {
        const b = el("button", { type: "button", "data-action": a.id }, a.label);
        b.addEventListener("click", () => this.send([a.id]));
        buttons.append(b);
      }
      const claims = others.filter((o) => o.kind === "claim");
      if (claims.length) {
        const toggle = el(
          "button",
          { type: "button", class: "claim-toggle", "aria-expanded": this.showClaims ? "true" : "false" },
          this.showClaims ? "Hide claims" : "Claim or concede…",
        );
        toggle.addEventListener("click", () => {
          this.showClaims = !this.showClaims;
          this.draw();
        });
        buttons.append(toggle);
        if (this.showClaims) {
          const panel = el("div", { class: "claims", role: "group", "aria-label": "Claims and concessions" });
          for (const a of claims) {
            const b = el("button", { type: "button", "data-action": a.id, class: "claim" }, a.label);
            b.addEventListener("click", () => {
              this.confirming = a;
              this.showClaims = false;
              this.draw();
            });
            panel.append(b);
          }
          buttons.append(panel);
        }
      }
      if (layingOut) {
        const chosen = [...this.selected].filter((c) => discards.has(c));
        const go = el(
          "button",
          { type: "button", class: "primary", "data-action": "lay-out" },
          `Lay out ${chosen.length}/${need}`,
        );
        if (chosen.length !== need) go.setAttribute("disabled", "");
        go.addEventListener("click", () => this.send(chosen.map((c) => discards.get(c) ?? "")));
        buttons.append(el("span", { class: "ask" }, `Choose ${need} card${need === 1 ? "" : "s"} to lay out`), go);
      }
    }
    box.append(buttons);
    if (you.stock_seen.length) {
      const row = el("div", { class: "mini", "aria-label": "Stock cards you have seen" });
      row.append(el("span", {}, "Seen from the stock: "));
      you.stock_seen.forEach((c) => row.append(this.card(c)));
      box.append(row);
    }
    const hand = el("div", { class: "hand", role: "group", "aria-label": "Your hand (arrow keys to choose, Enter to play)" });
    hand.style.setProperty("--n", String(you.hand.length));
    you.hand.forEach((code, index) => {
      const playId = plays.get(code);
      const live = !waiting && (playId !== undefined || discards.has(code));
      const picked = this.selected.has(code);
      const b = el("button", {
        type: "button",
        class: `cardbtn${live ? " legal" : ""}${picked ? " picked" : ""}`,
        "data-card": code,
        tabindex: index === 0 ? "0" : "-1",
        "aria-label": live
          ? `${layingOut ? (picked ? "Keep" : "Lay out") : "Play"} ${cardName(code)}`
          : `${cardName(code)} (not playable now)`,
      });
      if (layingOut) b.setAttribute("aria-pressed", picked ? "true" : "false");
      if (!live) b.setAttribute("aria-disabled", "true");
      b.append(this.card(code));
      b.addEventListener("click", () => {
        if (!live) return;
        if (layingOut) {
          if (picked) this.selected.delete(code);
          else if (this.selected.size < need) this.selected.add(code);
          this.draw();
        } else if (playId !== undefined) this.send([playId]);
      });
      b.addEventListener("keydown", (e) => this.arrows(e, hand));
      hand.append(b);
    });
    box.append(hand);
    const layouts = game.layouts?.[you.seat];
    if (layouts) box.append(this.drawLayouts(layouts, waiting ? null : plays, "Your"));
    return box;
  }

  private arrows(e: KeyboardEvent, group: HTMLElement): void {
    const items = [...group.querySelectorAll<HTMLElement>("button")];
    const at = items.indexOf(e.target as HTMLElement);
    let next = -1;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = Math.min(items.length - 1, at + 1);
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = Math.max(0, at - 1);
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = items.length - 1;
    if (next < 0) return;
    e.preventDefault();
    items.forEach((item, i) => item.setAttribute("tabindex", i === next ? "0" : "-1"));
    items[next]?.focus();
  }

  private drawEnd(game: Game, state: TableState, names: string[]): HTMLElement {
    const sides = this.sideNames(state, game, names, game.scores.length);
    const winner = game.winner === null ? "Nobody" : (sides[game.winner] ?? `Side ${game.winner + 1}`);
    const box = el("section", { class: "end", role: "status" });
    box.append(
      el("h2", {}, `${winner} won`),
      el("p", {}, game.scores.map((s, i) => `${sides[i] ?? ""}: ${s}`).join(" · ")),
    );
    return box;
  }

  private drawLast(game: Game, names: string[]): void {
    const box = byId("lastbox");
    box.replaceChildren();
    const button = byId("last");
    button.setAttribute("aria-expanded", this.showLast ? "true" : "false");
    if (!this.showLast) return;
    const last = game.last_trick;
    if (last === null) {
      box.append(el("p", {}, "No trick has been played yet."));
      return;
    }
    const n = game.hand_sizes.length;
    const row = el("div", { class: "mini", "aria-label": "The last trick" });
    last.cards.forEach((c, k) => {
      const seat = (last.leader + k) % n;
      row.append(el("figure", {}, this.card(c), el("figcaption", {}, this.short(names[seat] ?? ""))));
    });
    box.append(row, el("p", {}, `Won by ${this.short(names[last.winner] ?? "?")}`));
  }

  private tick(): void {
    const now = Date.now() / 1000;
    document.querySelectorAll<HTMLElement>(".clock").forEach((node) => {
      const left = Math.max(0, Math.round(Number(node.dataset.at) - now));
      node.textContent = `⏱ ${left} s`;
      node.classList.toggle("late", left <= 10);
    });
  }
}

function boot(): void {
  const view = new TableView();
  (window as unknown as { rhView: TableView }).rhView = view;
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
else boot();
