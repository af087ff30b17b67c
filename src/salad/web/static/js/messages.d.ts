// Generated from salad.server.messages by `python -m salad.server.protocol_schema`:
// do not edit. The websocket's messages (docs/protocol.md, docs/protocol.schema.json).

/** `{"type": "chat", "text": "nice one"}` or `{"type": "chat", "emote": "gg"}`. */
export type ChatIn = {
  type: "chat";
  /** At most 200 characters once its spaces are tidied */
  text?: string | null;
  emote?: "nice" | "haha" | "wow" | "ouch" | "gg" | "oops" | null;
};

/** A chat line or reaction (`text` or `emote`) and who said it when. */
export type ChatLine = {
  /** -1: a spectator */
  seat: number;
  name: string;
  /** Unix seconds */
  at: number;
  text?: string;
  emote?: "nice" | "haha" | "wow" | "ouch" | "gg" | "oops";
};

/** The table's recent lines, oldest first, and whether spectators may write: on connect. */
export type ChatLog = {
  type: "chat_log";
  lines: ChatLine[];
  spectators: boolean;
};

/** `chat`: a line or reaction said at the table, to every connection of it. */
export type Chat = {
  /** -1: a spectator */
  seat: number;
  name: string;
  /** Unix seconds */
  at: number;
  text?: string;
  emote?: "nice" | "haha" | "wow" | "ouch" | "gg" | "oops";
  type: "chat";
};

/** `{"type": "chat_settings", "spectators": true}` (the host): may spectators write? */
export type ChatSettingsIn = {
  type: "chat_settings";
  spectators: boolean;
};

/** `chat_settings`: whether spectators may write, as the host just set it. */
export type ChatSettings = {
  type: "chat_settings";
  spectators: boolean;
};

/** Every message a client sends (hello as the first only). */
export type ClientMessage = HelloIn | PlayIn | PingIn | NextIn | ChatIn | ChatSettingsIn | HintIn | UndoIn;

/** The concrete deck for the table's player count (salad.server.info.deck_info). */
export type Deck = {
  suits: Suit[];
  ranks: Rank[];
  wilds: Wild[];
  cards_each: number;
};

/** `error`: one line saying what was refused; nothing changed. */
export type ErrorMessage = {
  type: "error";
  message: string;
};

/**
 * The summary of the hand just finished while the table waits for Next hand (and of the
 * last hand once the game is over; salad.server.tables.wire.hand_summary).
 */
export type HandEnd = {
  hand: number;
  round: string;
  penalties: Penalty[];
  /** Each seat's points by penalty id, and moon */
  seats: Record<string, number>[];
  /** The seat that shot the moon, or -1 */
  moon: number;
  points: number[];
  totals: number[];
  standings: number[];
  /** The seats whose Next hand the table waits for */
  waiting: number[];
};

/**
 * A round of the game in playing order, its penalties by their place in the lobby's
 * `penalty_lines`.
 */
export type HandInfo = {
  number: number;
  round: string;
  /** Indexes into the lobby's penalty_lines */
  penalties: number[];
  total: number;
  marks: Mark[];
};

/** A finished hand: its round and each seat's points. */
export type HandRound = {
  number: number;
  round: string;
  points: number[];
};

/**
 * `{"type": "hello", "token": "..."}`, a connection's first message: the seat's token
 * (sent here rather than in the URL, which servers and proxies write to their logs).
 */
export type HelloIn = {
  type: "hello";
  token: string;
};

/** `{"type": "hint"}`: the expert's move for this seat, and why (tables of bots). */
export type HintIn = {
  type: "hint";
};

/** The expert's move for the seat and why; `moves` says for which state. */
export type Hint = {
  type: "hint";
  move: string;
  reason: string;
  bot: string;
  moves: number;
};

/** The game's last finished trick (it may be of the previous hand). */
export type LastTrick = {
  leader: number;
  cards: [number, string][];
  winner: number;
};

/** The lobby: `GET /api/tables/{id}` and the `table` of a `state`. */
export type Lobby = {
  table_id: string;
  status: "lobby" | "playing" | "over";
  rules: string;
  title: string;
  players: number;
  seats: Seat[];
  host: number;
  turn_timer: number | null;
  bot_takeover: number | null;
  /** The table was made rated: its games against bots move ratings too (a game with two players the site knows is rated at any table) */
  rated?: boolean;
  /** How fast the bots play and how long a finished trick stays (the host's) */
  pace: "slow" | "normal" | "fast";
  /** Seconds a finished trick stays on the table */
  trick_pause: number;
  game_number: number;
  min_players: number;
  max_players: number;
  deck: Deck;
  /** Each penalty of the game in words, once ("Name: words"): the hands' penalties are their indexes */
  penalty_lines: string[];
  hands: HandInfo[];
  highest_wins: boolean;
  toppings: string[];
  /** How many cards each seat passes before a hand (0: none) */
  passing: number;
  pass_direction: string;
  /** Each topping in play: its name, then what it does */
  topping_text?: string[];
  /** The name of the piece a seat may hold for a penalty (a token) */
  marker?: string | null;
  /** The group the table is for (its members alone join), or null */
  group?: TableGroup | null;
};

/** A suit, or one card, that a round names itself: `suit` indexes the deck's suits. */
export type Mark = {
  suit: number;
  card?: string;
};

/**
 * `{"type": "next"}`: this seat has seen the hand's summary; the next hand starts once
 * every connected human seat has sent it (or the turn timer runs out).
 */
export type NextIn = {
  type: "next";
};

/**
 * A pass phase played at once, every seat choosing when it likes (docs/protocol.md,
 * "Passing at once"): what this seat may choose now and has chosen, who is still choosing.
 */
export type Passing = {
  /** The cards this seat may choose now (none once done) */
  legal: string[];
  /** The cards it has chosen, before its turn or at it */
  chosen: string[];
  /** The seats still choosing, the next to pass first */
  choosing: number[];
};

/** A penalty of a hand's summary: its id (the key of its points), its name and its cost. */
export type Penalty = {
  id: string;
  name: string;
  /** Points a trick or card of it costs (null: Moon) */
  each?: number | null;
};

/** `{"type": "ping"}`: answered `{"type": "pong"}`. */
export type PingIn = {
  type: "ping";
};

/** `{"type": "play", "move": "QS"}`: the seat's move as text (`QS`, `W+`, `trump:H`). */
export type PlayIn = {
  type: "play";
  /** As in the view's legal; any spelling salad.moves reads */
  move: string;
};

/** `pong`: the answer to a `ping`. */
export type Pong = {
  type: "pong";
};

/** A rank (low to high): its letter in card codes, its name, and its card face. */
export type Rank = {
  letter: string;
  name: string;
  /** What a card shows: 10 for T */
  label: string;
  /** How a person reads the rank where the label misleads */
  text?: string;
};

/** A seat of the lobby: who sits there, and whether they are connected. */
export type Seat = {
  seat: number;
  kind: "human" | "bot" | "open";
  name: string | null;
  bot: string | null;
  connected: boolean;
  /** A bot is playing for this away seat */
  takeover: boolean;
};

/** Every message the server sends. */
export type ServerMessage = State | ErrorMessage | Pong | Chat | ChatLog | ChatSettings | Hint | Undone;

/**
 * `state`: the table as one seat (`you`, -1 for a spectator) sees it, sent on connect
 * and after every change; the kept fields are left out when the connection has them.
 */
export type State = {
  type: "state";
  you: number;
  /** null before the game starts */
  view: View | null;
  /** When the turn timer runs out (Unix seconds) */
  deadline: number | null;
  /** The moves of the current game so far */
  moves: number;
  hand_end: HandEnd | null;
  /** In a pass phase played at once (the view stays the engine's) */
  passing?: Passing;
  /** The lobby, when it changed since the last one sent (kept: left out when the connection has it) */
  table?: Lobby;
  /** The game's last finished trick (kept: left out when the connection has it) */
  last_trick?: LastTrick | null;
  /** Every finished hand (kept: left out when the connection has it) */
  hand_rounds?: HandRound[];
  /** The winning seats once the game is over (kept: left out when the connection has it) */
  winners?: number[];
};

/** A suit of the deck: its letter in card codes (`S`), its name and its symbol (`♠`). */
export type Suit = {
  letter: string;
  name: string;
  symbol: string;
  /** A drawing's name (Skip the Salad's) */
  art?: string;
};

/** The group a table was made for: its members alone take its seats. */
export type TableGroup = {
  id: string;
  /** The group's name (null: not known to this server) */
  name: string | null;
};

/** A finished trick of the hand: its cards in the order played. */
export type Trick = {
  leader: number;
  cards: string[];
  winner: number;
};

/** `{"type": "undo"}`: take back this seat's last move and the bots' after it. */
export type UndoIn = {
  type: "undo";
};

/** A seat took back `count` moves (its own and the bots' after it); `moves` are left. */
export type Undone = {
  type: "undone";
  seat: number;
  count: number;
  moves: number;
};

/** What a seat (or a spectator, seat -1) sees of the game: `View.to_dict()`. */
export type View = {
  seat: number;
  players: number;
  phase: "deal" | "pass" | "trump" | "play" | "over";
  /** From 1 */
  hand: number;
  round: string;
  dealer: number;
  to_move: number;
  /** The seat's own cards (none for a spectator) */
  cards: string[];
  /** The seat's legal moves now */
  legal: string[];
  leader: number;
  /** Seat and card of each card of this trick */
  trick: [number, string][];
  led_suit: string | null;
  trump: string | null;
  /** This hand's finished tricks (kept: left out when the connection has it) */
  tricks?: Trick[];
  hand_sizes: number[];
  tricks_won: number[];
  /** This hand's penalties so far, seat by seat */
  running: number[];
  token: number | null;
  hand_points: number[][];
  totals: number[];
  passed: string[];
  received: string[];
};

/** A wild card of the table's deck. */
export type Wild = {
  code: string;
  name: string;
  symbol: string;
  /** Its player declares it high (W+) or low */
  declare: boolean;
};

/** A `state`'s view once completed: every kept key is there. */
export type CompleteView = View & Required<Pick<View, "tricks">>;

/** A `state` once completed (table/protocol.js, `complete`): every kept key is there. */
export type CompleteState = Omit<State, "table" | "last_trick" | "hand_rounds" | "winners" | "view"> & Required<Pick<State, "table" | "last_trick" | "hand_rounds" | "winners">> & { view: CompleteView | null };

/** The keys a `state` leaves out when its connection already has them. */
export declare const KEPT: readonly ["table", "last_trick", "hand_rounds", "winners"];
/** The keys of a `state`'s view it leaves out likewise. */
export declare const VIEW_KEPT: readonly ["tricks"];
