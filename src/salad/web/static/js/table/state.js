// @ts-check
// The table page's state: what the last `state` message said, what this page is doing (a card
// held for the Wild picker, the cards chosen to pass, what was typed), and the questions the
// other modules ask about it. Nothing here draws; `redraw()` asks the page to.

import { api, errorText, tableIdFromPath } from "../api.js";
import { Deck } from "../cards.js";
import { toast } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../messages.js").Lobby} Table */
/** @typedef {import("../messages.js").CompleteView} View */
/** @typedef {import("../messages.js").LastTrick} LastTrick */
/** @typedef {import("../messages.js").HandRound} HandRound */
/** @typedef {import("../messages.js").HandEnd} HandEnd */
/** @typedef {import("../messages.js").CompleteState} StateMessage */
/** @typedef {import("../api.js").Socket} Socket */

export const S = {
  tableId: tableIdFromPath() || "",
  watching: location.pathname.startsWith("/watch/"),
  /** @type {string | null} */
  token: null,
  /** @type {Socket | null} */
  socket: null,
  /** @type {Table | null} */
  table: null,
  you: -1,
  /** @type {View | null} */
  view: null,
  /** @type {LastTrick | null} */
  lastTrick: null,
  /** @type {HandRound[]} */
  handRounds: [],
  /** @type {number | null} */
  deadline: null,
  /** @type {number[]} */
  winners: [],
  /** @type {HandEnd | null} */
  handEnd: null, // the finished hand's summary, while the table waits for Next hand
  nextSent: 0, // the hand whose Next hand this page has pressed
  deck: new Deck(null),
  deckKey: "",
  hadState: false,
  connected: false, // the table's websocket is open: moves can be sent
  /** @type {{ reason: string, table: boolean } | null} */
  ended: null, // the server closed this page's connection for good (api.js FINAL), and why
  /** @type {LastTrick | null} */
  holdTrick: null,
  /** @type {ReturnType<typeof setTimeout> | null} */
  holdTimer: null,
  /** @type {StateMessage | null} */
  queued: null,
  /** @type {StateMessage | null} */
  received: null, // the last state message received, completed (see complete())
  awaiting: false,
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  awaitTimer: undefined,
  typed: "",
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  typedTimer: undefined,
  /** @type {string | null} */
  pendingWild: null,
  /** @type {string[]} */
  passSel: [], // the cards chosen to pass, oldest first: a code once per copy (Wilds are alike)
  /** @type {string[]} */
  bots: [],
  /** @type {number[] | null} */
  prevRunning: null,
  /** @type {Set<string> | null} */
  shownTrick: null, // the trick cards drawn last time ("seat:code"), to animate only new ones
};

/** @type {() => void} */
let renderer = () => {};

/** Name the function that draws the page from S (the page's entry module does). @param {() => void} fn */
export function setRenderer(fn) {
  renderer = fn;
}

/** Draw the page again from S. */
export function redraw() {
  renderer();
}

/** The lobby; only asked for once a state has come. */
export function table() {
  if (!S.table) throw new Error("no table yet");
  return S.table;
}

/** The view; only asked for where the game is on. */
export function view() {
  if (!S.view) throw new Error("no game view yet");
  return S.view;
}

/** @param {unknown} x */
export function key(x) {
  return JSON.stringify(x);
}

/** @param {number} i */
export function seatName(i) {
  const seat = S.table && S.table.seats && S.table.seats[i];
  if (!seat) return t("Seat {n}", { n: i + 1 });
  if (seat.kind === "open") return t("Open seat");
  return seat.name || (seat.bot ? t("Bot {n}", { n: i + 1 }) : t("Seat {n}", { n: i + 1 }));
}

/** A seat's name, "(you)" after this page's own (not "You (you)"). @param {number} i @param {string} [name] */
export function nameYou(i, name = seatName(i)) {
  if (i !== S.you || i < 0) return name;
  return /^you$/i.test(name.trim()) ? t("You") : t("{name} (you)", { name });
}

/** @returns {number} */
export function players() {
  return (S.view && S.view.players) || (S.table && (S.table.players || S.table.seats.length)) || 0;
}

export function isHost() {
  return Boolean(S.table && S.you >= 0 && S.table.host === S.you);
}

export function myTurn() {
  return Boolean(
    S.view &&
      S.connected && // while the page reconnects, no card is offered: a move could not be sent
      S.you >= 0 &&
      S.view.to_move === S.you &&
      S.view.legal.length > 0 &&
      !waitingNext(),
  );
}

/** Whether a hand's summary is up, the table waiting for Next hand (no move is taken). */
export function waitingNext() {
  return Boolean(S.handEnd && S.handEnd.waiting.length && S.view && S.view.phase !== "over");
}

/** Whether this page still has to press Next hand. */
export function mustPressNext() {
  return waitingNext() && Boolean(S.handEnd && S.handEnd.waiting.includes(S.you)) && S.nextSent !== S.handEnd?.hand;
}

/** The hand shown: the one just played while its summary is up. */
export function shownHand() {
  return waitingNext() && S.handEnd ? S.handEnd.hand : S.view ? S.view.hand : 0;
}

export function handInfo() {
  if (!S.table || !S.view || !S.table.hands) return null;
  return S.table.hands[shownHand() - 1] || null;
}

/** A hand's penalties in words: places in the lobby's penalty_lines.
 * @param {import("../messages.js").HandInfo} hand */
export function penaltiesOf(hand) {
  return hand.penalties.map((i) => S.table?.penalty_lines[i] ?? "");
}

/** @returns {number[]} */
export function gameWinners() {
  if (S.winners && S.winners.length) return S.winners;
  const totals = S.view ? S.view.totals : [];
  if (!totals.length) return [];
  const best = S.table && S.table.highest_wins ? Math.max(...totals) : Math.min(...totals);
  return totals.map((t, i) => (t === best ? i : -1)).filter((i) => i >= 0);
}

/** How many more cards this seat passes (0: no passing, or any number). */
export function passNeeded() {
  const n = S.table && S.table.passing;
  if (!n) return 0;
  return Math.max(0, n - ((S.view && S.view.passed.length) || 0));
}

export function passDirection() {
  const tb = S.table;
  if (!tb) return "";
  return tb.pass_direction || "";
}

/** @param {ReadonlyArray<string>} list @param {string} code */
export const countOf = (list, code) => list.reduce((n, c) => n + (c === code ? 1 : 0), 0);

/** After a state: keep only the chosen cards that can still be passed (a card may have been
 * passed meanwhile from another tab, or by a bot when the turn timer ran out), newest first. */
export function prunePasses() {
  const free = [...view().legal];
  const keep = [];
  for (let i = S.passSel.length - 1; i >= 0; i--) {
    const at = free.indexOf(S.passSel[i]);
    if (at < 0) continue;
    free.splice(at, 1);
    keep.unshift(S.passSel[i]);
  }
  const need = passNeeded();
  S.passSel = need ? keep.slice(Math.max(0, keep.length - need)) : keep;
}

/** Names in a sentence: "Ann", "Ann and Bob", "Ann, Bob and Cy". @param {string[]} names */
export function listNames(names) {
  if (names.length < 2) return names.join("");
  return t("{names} and {last}", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

export const tablePath = () => `/api/tables/${encodeURIComponent(S.tableId)}`;

/**
 * A REST call with this seat's token (none: the seat of the player the cookie names); a
 * refusal is shown as a toast and gives null.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function rest(method, path, body) {
  try {
    return await api(method, path, body, S.token);
  } catch (err) {
    toast(errorText(err));
    return null;
  }
}
