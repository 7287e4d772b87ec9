// The JSON the server sends: docs/table-state.md (rh.table/1, rh.seat/1) and the
// socket's frames (docs/web-table.md).

export interface SeatInfo {
  seat: number;
  occupant: "empty" | "human" | "ai";
  name: string | null;
  user_id: string | null;
  ai: string | null;
  away: boolean;
}

export interface Played {
  seat: number;
  card: string;
}

export interface Call {
  seat: number;
  call: string;
}

export interface Trick {
  leader: number;
  cards: string[];
  winner: number;
}

export interface LayoutPos {
  up: string | null;
  down: number;
  fresh: boolean;
}

export interface Game {
  phase: string;
  game_no: number;
  deal_no: number;
  dealer: number;
  eldest: number;
  to_act: number | null;
  deadline: { seat: number; at: number } | null;
  sides: number[];
  hand_sizes: number[];
  trump: string | null;
  turn_up: { card: string; holder: number } | null;
  contract: { name: string; declarer: number | null; auction: Call[] } | null;
  calls: Call[];
  shown_honours: Played[];
  ruff: { ruffer: number; state: string } | null;
  exposed: { seat: number; cards: string[] }[];
  layouts: LayoutPos[][] | null;
  trick: { number: number; leader: number; led_suit: string | null; cards: Played[] } | null;
  last_trick: Trick | null;
  tricks_left: number;
  tricks: number[];
  scores: number[];
  start_scores: number[];
  games_won: number[];
  target: number;
  winner: number | null;
  notes: Record<string, unknown>;
  kitty: string[];
}

export interface ActionInfo {
  id: string;
  kind: "legal" | "claim";
  verb: string;
  card: string | null;
  label: string;
}

export interface You {
  seat: number;
  side: number;
  partner: number | null;
  hand: string[];
  stock_seen: string[];
  laid_out: string[];
  to_lay_out: number;
  my_turn: boolean;
  actions: ActionInfo[];
}

export interface TableState {
  schema: string;
  table_id: number;
  game_id: string;
  preset: string;
  status: "lobby" | "active" | "finished" | "cancelled";
  version: number;
  hints: boolean;
  rematch?: boolean;
  seats: SeatInfo[];
  lobby: { creator_id: string; open_seats: number[]; expires_at: number | null } | null;
  game: Game | null;
  you?: You | null;
}

export type ServerFrame =
  | {
      type: "welcome";
      user_id: string;
      name: string;
      expires_at: number;
      language: string;
      texts: Record<string, string>;
    }
  | { type: "state"; seat: number | null; rev?: number; title?: string; state: TableState | null }
  | {
      // the fields changed since the document of revision ``base`` (docs/web-table.md)
      type: "delta";
      seat: number | null;
      table_id: number;
      version: number;
      base: number;
      rev: number;
      state: Partial<TableState>;
      game: Partial<Game> | null;
      you: Partial<You> | null;
    }
  | {
      type: "outcome";
      ref: number | null;
      kind: string;
      reason: string | null;
      text: string;
      version: number;
    }
  | { type: "error"; code: string; text: string; ref: number | null };
