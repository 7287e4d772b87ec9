// The web table: draws the state the server sends (the seat's projection, or the
// public table for a spectator) and reports what the player chose (an action id
// with the version it was chosen at). It knows no rules: what may be played is
// what the projection lists.

import { t, setTexts } from "./i18n";
import { Link } from "./net";
import type { ActionInfo, Game, SeatInfo, ServerFrame, TableState, You } from "./types";

const SUITS: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };
// N(): a text to translate where it is shown (t()), not where it is written
const N = (message: string): string => message;
const SUIT_NAMES: Record<string, string> = { S: N("spades"), H: N("hearts"), D: N("diamonds"), C: N("clubs") };
const RANK_NAMES: Record<string, string> = { A: N("ace"), K: N("king"), Q: N("queen"), J: N("jack") };
const AI_LEVELS: Record<string, string> = { easy: N("easy"), normal: N("normal"), hard: N("hard") };
const PHASES: Record<string, string> = {
  deal: N("Dealing"),
  ruff: N("The ruff"),
  discard: N("Laying out"),
  can_ye: N("Honours"),
  bidding: N("Bidding"),
  name: N("Naming trumps"),
  kitty: N("The kitty"),
  auction: N("Auction"),
  trumps: N("Naming trumps"),
  contest: N("The contest"),
  play: N("Play"),
  score: N("Scoring"),
  claim: N("A claim"),
  concede: N("A concession"),
  over: N("Game over"),
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

const BID_MODES: Record<string, string> = { u: N("uptown"), d: N("downtown"), n: N("no trump") };

/** A call as players say it: Bid Whist's ``4d`` is "4 downtown"; other calls are words already. */
export function callName(code: string): string {
  const bid = /^([1-7])([udn])$/.exec(code);
  const mode = bid === null ? undefined : BID_MODES[bid[2] ?? ""];
  if (bid === null || mode === undefined) return code;
  return t("{n} {mode}", { n: bid[1] ?? "", mode: t(mode) });
}

export function cardName(code: string): string {
  if (code === "LJ") return t("little joker");
  if (code === "BJ") return t("big joker");
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  const rankName = RANK_NAMES[rank];
  const suitName = SUIT_NAMES[suit];
  return t("{rank} of {suit}", {
    rank: rankName === undefined ? rank : t(rankName),
    suit: suitName === undefined ? suit : t(suitName),
  });
}

class TableView {
  private state: TableState | null = null;
  private selected = new Set<string>();
  private confirming: ActionInfo | null = null;
  private showLast = false;
  private showClaims = false;
  private fourColour = localStorage.getItem("rh.deck") === "4";
  private sentAt = -1;
  private rev = -1; // the revision of the document held (a delta applies to it alone)
  private seat: number | null = null;
  private title = "";
  private linkOk = false;
  private cancelling = false;
  private link: Link;

  constructor() {
    this.link = new Link({
      frame: (frame) => this.frame(frame),
      status: (text, ok) => this.status(text, ok),
      signedIn: (who) => {
        byId("who").textContent = who.name;
        byId("who").dataset.user = who.userId;
        this.staticTexts(); // the browser's language until the socket says the player's
      },
    });
    void this.link.start(); // the sign-in and the socket first: the rest waits on them
    this.staticTexts();
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
  }

  // ------------------------------------------------------------ frames

  private frame(frame: ServerFrame): void {
    switch (frame.type) {
      case "welcome":
        setTexts(frame.texts, frame.language);
        this.staticTexts();
        this.sentAt = -1; // a new connection: whatever was sent before is answered or lost
        this.rev = -1; // and it is sent the whole table first
        byId("who").textContent = frame.name;
        byId("who").dataset.user = frame.user_id;
        break;
      case "state":
        // the first whole table in hand, for tools/bench_web_draw.py: the server's part ends here
        if (performance.getEntriesByName("rh:first-state").length === 0) performance.mark("rh:first-state");
        this.rev = frame.rev ?? -1;
        this.title = frame.title ?? "";
        this.show(frame.state, frame.seat);
        break;
      case "delta": {
        const held = this.state;
        if (held === null || this.rev !== frame.base || held.table_id !== frame.table_id) {
          this.rev = -1;
          this.link.send({ type: "sync" }); // a gap: the whole document again
          break;
        }
        const next: TableState = { ...held, ...frame.state };
        if (frame.game !== null && held.game) next.game = { ...held.game, ...frame.game };
        if (frame.you !== null && held.you) next.you = { ...held.you, ...frame.you };
        this.rev = frame.rev;
        this.show(next, frame.seat);
        break;
      }
      case "outcome":
        if (frame.kind === "hint") {
          this.say(frame.text);
          this.sentAt = -1;
          this.draw();
        } else if (frame.kind !== "applied") {
          this.say(frame.text || t("That was not accepted."));
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

  private show(state: TableState | null, seat: number | null): void {
    if (this.state?.version !== state?.version) {
      this.selected.clear();
      this.confirming = null;
    }
    if (this.state?.table_id !== state?.table_id) this.cancelling = false;
    this.state = state;
    this.seat = seat;
    this.draw();
  }

  private say(text: string): void {
    byId("say").textContent = text;
  }

  private status(text: string, ok: boolean): void {
    const was = this.linkOk;
    this.linkOk = ok;
    const node = byId("link");
    node.textContent = text;
    node.className = ok ? "ok" : "bad";
    if (was !== ok && this.state !== null) this.draw(); // nothing is live while offline
  }

  /** Whether the page's choices are held: a move sent and not yet answered, or no
   * connection (a click then would be lost: the table comes back with the socket). */
  private busy(state: TableState): boolean {
    return this.sentAt === state.version || !this.linkOk;
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

  /** Cancel, take my seat back, rematch: the table message's buttons. */
  private tableVerb(verb: string): void {
    this.say("");
    this.cancelling = false;
    this.link.send({ type: "table", verb });
  }

  private hint(): void {
    const state = this.state;
    const you = state?.you;
    if (!state || !you) return;
    this.say(t("Thinking about a hint…"));
    this.link.send({ type: "hint", version: state.version, seat: you.seat });
  }

  /** The page's own words (index.html), in the player's language once it is known. */
  private staticTexts(): void {
    byId("who").setAttribute("aria-label", t("Signed in as"));
    byId("deck-label").textContent = t("Four colours");
    byId("last").textContent = t("Last trick");
    if (this.linkOk) byId("link").textContent = t("Connected"); // it said so before the words came
    if (byId("table").dataset.status === undefined) {
      byId("table").replaceChildren(el("p", { class: "empty" }, t("Loading the table…")));
    } else this.draw();
  }

  // ------------------------------------------------------------ drawing

  private card(code: string, extra: Record<string, string> = {}): HTMLImageElement {
    return el("img", {
      src: `cards/${this.fourColour ? 4 : 2}/${code}.svg`,
      alt: cardName(code),
      class: "card",
      // the face's own size (bot/web/cards.py): its place is laid out when the table is
      // drawn, not again as each face arrives (a dozen layouts on a slow phone)
      width: "100",
      height: "140",
      draggable: "false",
      ...extra,
    });
  }

  private names(seats: SeatInfo[]): string[] {
    return seats.map((s, i) =>
      s.occupant === "empty" ? t("Seat {n} (empty)", { n: i + 1 }) : (s.name ?? t("Seat {n}", { n: i + 1 })),
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
      byId("title").textContent = t("Ruff and Honours");
      document.title = t("Ruff and Honours — the table");
      main.append(
        el(
          "p",
          { class: "empty" },
          t("There is no table in this channel yet. Open one with /ruff new — it shows here at once."),
        ),
      );
      byId("lastbox").replaceChildren();
      return;
    }
    const title = t("{game} · table #{table}", { game: this.title || state.game_id, table: state.table_id });
    byId("title").textContent = title;
    document.title = title;
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
    const felt = el("section", { class: `felt seats${n}`, "aria-label": t("The table") });
    for (const seat of state.seats) {
      felt.append(this.drawSeat(state, game, seat, names, this.place(seat.seat, n, bottom), you));
    }
    felt.append(this.drawTrick(game, n, bottom, names));
    main.append(felt);
    main.append(this.drawTurn(state, game, names, you));
    main.append(this.drawControls(state, you));
    if (you !== null) main.append(this.drawYou(state, game, you));
    else main.append(el("p", { class: "watching" }, t("You are watching: the public table only.")));
    // cancelling is for the opener and rare: at the foot, away from the cards
    if (you !== null && state.status === "active") {
      main.append(el("div", { class: "actions foot", role: "group", "aria-label": t("The table") }, this.drawCancel()));
    }
    if (state.status === "finished" || game.winner !== null) main.append(this.drawEnd(game, state, names));
    this.drawLast(game, names);
    this.tick(); // the deadline's seconds at once, not a second later
    // the first table on screen, for tools/bench_web_draw.py (and the browser's own tools)
    if (performance.getEntriesByName("rh:first-table").length === 0) performance.mark("rh:first-table");
    if (focused !== null) {
      const again = main.querySelector<HTMLElement>(`[data-card="${focused}"]`);
      again?.focus();
    }
  }

  private drawLobby(state: TableState): HTMLElement {
    const box = el("section", { class: "lobby", "aria-label": t("The lobby") });
    box.append(el("h2", {}, t("Waiting to start")));
    const list = el("ol", { class: "lobby-seats" });
    state.seats.forEach((seat, i) => {
      const who = seat.occupant === "empty" ? t("— empty —") : (seat.name ?? "?");
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
    if (!mine && open > 0) add(t("Join the table"), "join");
    if (mine && open > 0) {
      add(t("Add AI (easy)"), "ai-easy");
      add(t("Add AI (normal)"), "ai-normal");
      add(t("Add AI (hard)"), "ai-hard");
    }
    if (mine) add(open > 0 ? t("Start (AI fills the empty seats)") : t("Start"), "start");
    if (mine && state.lobby?.creator_id !== byId("who").dataset.user) add(t("Leave"), "leave");
    box.append(buttons);
    if (mine) box.append(this.drawCancel());
    return box;
  }

  private sideNames(state: TableState, game: Game, names: string[], count: number): string[] {
    const n = state.seats.length;
    if (count === n) return names.map((name) => this.short(name));
    // partnerships: the scoring side i is seats i and i + 2
    return Array.from({ length: count }, (_, side) =>
      names.filter((_, seat) => seat % count === side).map((n) => this.short(n)).join(t(" & ")),
    ).map((label, i) => (game.sides.length ? label : t("Side {n}", { n: i + 1 })));
  }

  private drawScores(state: TableState, game: Game, names: string[]): HTMLElement {
    const bar = el("section", { class: "scores", "aria-label": t("Scores") });
    const sides = this.sideNames(state, game, names, game.scores.length);
    game.scores.forEach((score, i) => {
      const won = game.games_won[i] ?? 0;
      bar.append(
        el(
          "div",
          { class: "score" },
          el("span", { class: "side" }, sides[i] ?? t("Side {n}", { n: i + 1 })),
          el("strong", {}, ` ${score}`),
          won ? el("span", { class: "games" }, " · " + t("games {n}", { n: won })) : "",
        ),
      );
    });
    const info: string[] = [
      t("Game {game}, deal {deal}", { game: game.game_no, deal: game.deal_no }),
    ];
    if (game.target > 0) info.push(t("to {target}", { target: game.target }));
    const suit = game.trump ? SUIT_NAMES[game.trump] : undefined;
    info.push(
      game.trump
        ? t("Trumps {symbol} {suit}", { symbol: SUITS[game.trump] ?? game.trump, suit: suit ? t(suit) : "" })
        : t("No trumps yet"),
    );
    if (game.contract?.name) info.push(t("Contract: {name}", { name: callName(game.contract.name) }));
    info.push(t(PHASES[game.phase] ?? game.phase));
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
      "aria-label": turn ? t("{name}, to play", { name: names[i] ?? "" }) : (names[i] ?? ""),
    });
    const badges: string[] = [];
    if (game.dealer === i) badges.push(t("dealer"));
    if (seat.occupant === "ai") badges.push(t("AI {level}", { level: seat.ai ? t(AI_LEVELS[seat.ai] ?? seat.ai) : "" }).trim());
    if (seat.away) badges.push(t("AI playing for them"));
    if (you !== null && i !== you.seat && game.sides.length && game.sides[i] === game.sides[you.seat]) {
      // a partner at a fixed partnership; against a soloist the three defenders are one side
      const side = game.sides.filter((s) => s === game.sides[you.seat]).length;
      badges.push(side > 2 ? t("on your side") : t("partner"));
    } else if (you !== null && !game.sides.length && you.partner === i) badges.push(t("partner"));
    box.append(
      el("div", { class: "name" }, `${turn ? "▶ " : ""}${this.short(names[i] ?? "")}`),
      el(
        "div",
        { class: "meta" },
        t("{cards} cards · tricks {tricks}", { cards: game.hand_sizes[i] ?? 0, tricks }) +
          (badges.length ? ` · ${badges.join(", ")}` : ""),
      ),
    );
    const exposed = game.exposed.find((e) => e.seat === i);
    if (exposed && (you === null || you.seat !== i)) {
      const row = el("div", { class: "mini", "aria-label": t("{name}'s hand, face up", { name: names[i] ?? "" }) });
      exposed.cards.forEach((c) => row.append(this.card(c)));
      box.append(row);
    }
    const claim = game.notes.claim as { seat: number; hand: string[]; tricks: number } | undefined;
    if (claim && claim.seat === i && (you === null || you.seat !== i)) {
      const row = el("div", { class: "mini", "aria-label": t("{name}'s hand, shown with the claim", { name: names[i] ?? "" }) });
      claim.hand.forEach((c) => row.append(this.card(c)));
      box.append(row);
    }
    const layouts = game.layouts?.[i];
    if (layouts && (you === null || you.seat !== i))
      box.append(this.drawLayouts(layouts, null, t("{name}'s layout", { name: names[i] ?? "" })));
    const honours = game.shown_honours.filter((h) => h.seat === i);
    if (honours.length) {
      const row = el("div", { class: "mini", "aria-label": t("{name} showed honours", { name: names[i] ?? "" }) });
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
    const row = el("div", { class: "layouts", role: "group", "aria-label": who });
    for (const pos of layouts) {
      const pile = el("div", { class: "pile" });
      if (pos.up !== null) {
        const id = playable?.get(pos.up);
        if (id !== undefined) {
          const b = el("button", {
            type: "button",
            class: "cardbtn legal",
            "data-card": pos.up,
            "aria-label": t("Play {card} from your layout", { card: cardName(pos.up) }),
          });
          b.append(this.card(pos.up));
          b.addEventListener("click", () => this.send([id]));
          pile.append(b);
        } else {
          pile.append(this.card(pos.up, { class: `card${pos.fresh ? " fresh" : ""}` }));
        }
      }
      if (pos.down > 0)
        pile.append(
          el(
            "span",
            { class: "down", title: t("{n} face down under it", { n: pos.down }) },
            `+${pos.down}`,
          ),
        );
      row.append(pile);
    }
    return row;
  }

  private drawTrick(game: Game, n: number, bottom: number, names: string[]): HTMLElement {
    const centre = el("div", { class: "trick", "aria-label": t("The trick"), role: "group" });
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
      centre.append(el("div", { class: "turnup" }, this.card(game.turn_up.card), el("span", {}, t("turned up"))));
    }
    if (game.kitty.length) {
      const row = el("div", { class: "mini", "aria-label": t("The kitty") });
      game.kitty.forEach((c) => row.append(this.card(c)));
      centre.append(row);
    }
    return centre;
  }

  private drawTurn(state: TableState, game: Game, names: string[], you: You | null): HTMLElement {
    const line = el("p", { class: "turnline", id: "turnline" });
    if (state.status !== "active") {
      line.textContent = state.status === "finished" ? t("The game is over.") : t("This table was cancelled.");
    } else if (you?.my_turn) {
      line.textContent = t("Your turn");
      line.classList.add("mine");
    } else if (game.to_act !== null) {
      line.textContent = t("Waiting for {name}", { name: names[game.to_act] ?? "?" });
    }
    if (game.deadline && state.status === "active") {
      line.append(" ", el("span", { class: "clock", "data-at": String(game.deadline.at) }, ""));
    }
    const calls = [...(game.contract?.auction ?? []), ...game.calls].slice(-4);
    if (calls.length) {
      line.append(
        el("span", { class: "calls" }, ` · ${calls.map((c) => `${this.short(names[c.seat] ?? "?")}: ${callName(c.call)}`).join(", ")}`),
      );
    }
    return line;
  }

  private drawYou(state: TableState, game: Game, you: You): HTMLElement {
    const box = el("section", { class: "you", "aria-label": t("Your hand and choices") });
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
    const buttons = el("div", { class: "actions", role: "group", "aria-label": t("Your choices") });
    const waiting = this.busy(state);
    if (waiting) {
      buttons.append(el("span", { class: "ask" }, "…"));
    } else if (this.confirming !== null) {
      const a = this.confirming;
      buttons.append(el("span", { class: "ask" }, t("{choice}?", { choice: a.label })));
      const yes = el("button", { type: "button", class: "primary", "data-confirm": a.id }, t("Confirm"));
      yes.addEventListener("click", () => {
        this.confirming = null;
        this.send([a.id]);
      });
      const no = el("button", { type: "button" }, t("Cancel"));
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
          this.showClaims ? t("Hide claims") : t("Claim or concede…"),
        );
        toggle.addEventListener("click", () => {
          this.showClaims = !this.showClaims;
          this.draw();
        });
        buttons.append(toggle);
        if (this.showClaims) {
          const panel = el("div", { class: "claims", role: "group", "aria-label": t("Claims and concessions") });
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
          t("Lay out {chosen}/{need}", { chosen: chosen.length, need }),
        );
        if (chosen.length !== need) go.setAttribute("disabled", "");
        go.addEventListener("click", () => this.send(chosen.map((c) => discards.get(c) ?? "")));
        buttons.append(el("span", { class: "ask" }, need === 1 ? t("Choose 1 card to lay out") : t("Choose {n} cards to lay out", { n: need })), go);
      }
    }
    box.append(buttons);
    if (you.stock_seen.length) {
      const row = el("div", { class: "mini", "aria-label": t("Stock cards you have seen") });
      row.append(el("span", {}, t("Seen from the stock:") + " "));
      you.stock_seen.forEach((c) => row.append(this.card(c)));
      box.append(row);
    }
    const hand = el("div", { class: "hand", role: "group", "aria-label": t("Your hand (arrow keys to choose, Enter to play)") });
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
          ? t(layingOut ? (picked ? "Keep {card}" : "Lay out {card}") : "Play {card}", { card: cardName(code) })
          : t("{card} (not playable now)", { card: cardName(code) }),
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
    if (layouts) box.append(this.drawLayouts(layouts, waiting ? null : plays, t("Your layout")));
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

  /** Hint (a table with hints, your turn) and Take my seat back (the AI plays for you);
   * Cancel the table (with a confirm: the server says who may) is at the foot. */
  private drawControls(state: TableState, you: You | null): HTMLElement {
    const bar = el("div", { class: "actions controls", role: "group", "aria-label": t("Table controls") });
    if (you === null || state.status !== "active") return bar;
    const waiting = this.busy(state);
    if (state.hints && you.my_turn && !waiting && !state.seats[you.seat]?.away) {
      const b = el("button", { type: "button", "data-table": "hint" }, t("Hint"));
      b.addEventListener("click", () => this.hint());
      bar.append(b);
    }
    if (state.seats[you.seat]?.away) {
      const b = el("button", { type: "button", class: "primary", "data-table": "reclaim" }, t("Take my seat back"));
      b.addEventListener("click", () => this.tableVerb("reclaim"));
      bar.append(b);
    }
    return bar;
  }

  private drawCancel(): HTMLElement {
    const box = el("span", { class: "cancel" });
    if (!this.cancelling) {
      const b = el("button", { type: "button", "data-table": "cancel" }, t("Cancel the table"));
      b.addEventListener("click", () => {
        this.cancelling = true;
        this.draw();
        document.querySelector<HTMLElement>("[data-confirm=cancel]")?.focus();
      });
      box.append(b);
      return box;
    }
    const yes = el("button", { type: "button", class: "danger", "data-confirm": "cancel" }, t("Yes, cancel it"));
    yes.addEventListener("click", () => this.tableVerb("cancel"));
    const no = el("button", { type: "button" }, t("Keep playing"));
    no.addEventListener("click", () => {
      this.cancelling = false;
      this.draw();
    });
    box.append(el("span", { class: "ask" }, t("Cancel the table for everyone?")), yes, no);
    return box;
  }

  private drawEnd(game: Game, state: TableState, names: string[]): HTMLElement {
    const sides = this.sideNames(state, game, names, game.scores.length);
    const winner =
      game.winner === null ? t("Nobody") : (sides[game.winner] ?? t("Side {n}", { n: game.winner + 1 }));
    const box = el("section", { class: "end", role: "status" });
    box.append(
      el("h2", {}, t("{winner} won", { winner })),
      el("p", {}, game.scores.map((s, i) => `${sides[i] ?? ""}: ${s}`).join(" · ")),
    );
    if (state.status === "finished" && state.you && state.rematch !== false) {
      const again = el("button", { type: "button", class: "primary", "data-table": "rematch" }, t("Rematch"));
      again.addEventListener("click", () => this.tableVerb("rematch"));
      box.append(el("div", { class: "actions" }, again));
    }
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
      box.append(el("p", {}, t("No trick has been played yet.")));
      return;
    }
    const n = game.hand_sizes.length;
    const row = el("div", { class: "mini", "aria-label": t("The last trick") });
    last.cards.forEach((c, k) => {
      const seat = (last.leader + k) % n;
      row.append(el("figure", {}, this.card(c), el("figcaption", {}, this.short(names[seat] ?? ""))));
    });
    box.append(row, el("p", {}, t("Won by {name}", { name: this.short(names[last.winner] ?? "?") })));
  }

  private tick(): void {
    const now = Date.now() / 1000;
    document.querySelectorAll<HTMLElement>(".clock").forEach((node) => {
      const left = Math.max(0, Math.round(Number(node.dataset.at) - now));
      node.textContent = t("⏱ {seconds} s", { seconds: left });
      node.classList.toggle("late", left <= 10);
    });
  }
}

function boot(): void {
  performance.mark("rh:boot");
  const view = new TableView();
  (window as unknown as { rhView: TableView }).rhView = view;
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
else boot();
