// The table's socket: hello with the session, frames in, frames out; signs in
// again when the session is refused, reconnects (and is sent the table again)
// when the connection drops or the bot restarts.

import { signIn, Signed, SignInFailed } from "./signin";
import { t } from "./i18n";
import type { ServerFrame } from "./types";

const CLOSE_SESSION = 4001;

export interface Handlers {
  frame(frame: ServerFrame): void;
  status(text: string, ok: boolean): void;
  signedIn(who: Signed): void;
}

export class Link {
  private ws: WebSocket | null = null;
  private signed: Signed | null = null;
  private retry = 0;
  private nextRef = 1;

  constructor(private readonly on: Handlers) {}

  /** Sign in and open the socket, both at once: the socket's handshake goes beside
   * the sign-in's requests, and its hello as soon as both are done. */
  async start(): Promise<void> {
    this.signed = null;
    const signing = signIn();
    if (this.ws === null) this.open();
    try {
      this.signed = await signing;
      performance.mark("rh:signed-in");
      this.on.signedIn(this.signed);
    } catch (err) {
      const code = err instanceof SignInFailed ? err.message : "unreachable";
      this.on.status(signInWords(code), false);
      this.ws?.close(); // not signed in: nothing to say on it (onclose: signed is null)
      this.ws = null;
      if (code === "unreachable" || code === "discord_unreachable") this.later();
      return;
    }
    if (this.ws === null) this.open(); // it closed while the sign-in took its time
    else this.hello();
  }

  private hello(): void {
    const ws = this.ws;
    if (ws === null || ws.readyState !== WebSocket.OPEN || this.signed === null) return;
    ws.send(JSON.stringify({ type: "hello", session: this.signed.session }));
    this.on.status(t("Connected"), true);
  }

  private open(): void {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const base = location.pathname.replace(/[^/]*$/, "");
    const ws = new WebSocket(`${scheme}://${location.host}${base}ws`);
    this.ws = ws;
    ws.onopen = () => {
      performance.mark("rh:socket-open");
      this.retry = 0;
      this.hello(); // or when the sign-in is done
    };
    ws.onmessage = (event: MessageEvent) => {
      if (typeof event.data !== "string") return;
      if (performance.getEntriesByName("rh:first-frame").length === 0) performance.mark("rh:first-frame");
      let frame: ServerFrame;
      try {
        frame = JSON.parse(event.data) as ServerFrame;
      } catch {
        return;
      }
      this.on.frame(frame);
    };
    ws.onclose = (event: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.signed === null) return; // signing in: start() opens it again when done
      if (event.code === CLOSE_SESSION) {
        this.on.status(t("Signing in again…"), false);
        void this.start();
        return;
      }
      this.on.status(t("Connection lost — reconnecting…"), false);
      this.later();
    };
  }

  private later(): void {
    const wait = Math.min(10000, 500 * 2 ** this.retry);
    this.retry += 1;
    window.setTimeout(() => {
      if (this.signed === null) void this.start();
      else this.open();
    }, wait);
  }

  send(frame: Record<string, unknown>): number {
    const ref = this.nextRef++;
    if (this.ws !== null && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ ...frame, ref }));
    }
    return ref;
  }

  /** Drop the connection (tests and the "reconnect" control): it comes back by itself. */
  drop(): void {
    this.ws?.close();
  }
}

function signInWords(code: string): string {
  switch (code) {
    case "mock_off":
      return t("Open this page from Discord (or from the link `make demo` prints).");
    case "bad_request":
      return t("This link does not say who you are: open the link `make demo` prints.");
    case "not_in_instance":
      return t("You are not in this Activity.");
    case "not_configured":
      return t("The web table is not configured for Discord sign-in (docs/web-table.md).");
    default:
      return t("Could not sign in ({code}) — retrying…", { code });
  }
}
