// @ts-check
// The websocket protocol of the table page (docs/protocol.md): `state` messages in, completed
// from the last one and taken into S; `play` messages out.

import { store } from "../api.js";
import { Deck } from "../cards.js";
import { $, toast } from "../dom.js";
import { t } from "../i18n.js";
import { KEPT, VIEW_KEPT } from "../messages.js";
import { announceChanges } from "./announce.js";
import { onAssistMessage } from "./assist.js";
import { onChatMessage } from "./chat.js";
import { chime, holdMs, sweepTo } from "./motion.js";
import { asChosen } from "./passing.js";
import { key, myTurn, prunePasses, redraw, S, waitingNext } from "./state.js";

/** @typedef {import("../messages.js").ServerMessage} Message */
/** @typedef {import("../messages.js").CompleteState} StateMessage */

// A state leaves out what this connection already has: the lobby (`table`) when it has not
// changed, and the parts that change only when a trick ends (the view's `tricks`,
// `last_trick`, `hand_rounds`, `winners`) within a trick: the keys KEPT and VIEW_KEPT of
// messages.js, generated from the server's models. Fill them in from the last state.

/**
 * `msg` with what it left out filled in from the last state (changed in place); it becomes
 * the last state.
 * @param {import("../messages.js").State} msg
 * @returns {StateMessage}
 */
export function complete(msg) {
  const last = S.received;
  /** @type {Record<string, unknown>} */
  const into = msg;
  if (last) {
    for (const k of KEPT) if (!(k in msg)) into[k] = last[k];
    /** @type {Record<string, unknown> | null} */
    const view = msg.view;
    /** @type {Record<string, unknown> | null} */
    const before = last.view;
    if (view) for (const k of VIEW_KEPT) if (!(k in view)) view[k] = (before && before[k]) || [];
  }
  const done = /** @type {StateMessage} */ (msg);
  S.received = done;
  return done;
}

/** @param {"open" | "closed" | "connecting"} status */
export function onConnection(status) {
  const was = S.connected;
  S.connected = status === "open";
  // Until the page is connected again (through the backoff and the question which server
  // holds the table), the banner stays and no card is offered (see myTurn).
  $("conn-banner").hidden = S.connected || !S.hadState;
  // A Next hand sent on an earlier connection may never have arrived (its server went away,
  // or restarted and waits for everyone again): the server's waiting list decides anew.
  if (status === "open") S.nextSent = 0;
  if (was !== S.connected && S.hadState) redraw();
}

/** @param {Message} msg */
export function onMessage(msg) {
  if (onChatMessage(msg) || onAssistMessage(msg)) return; // table/chat.js, table/assist.js
  if (msg.type === "state") onState(complete(msg));
  else if (msg.type === "error") {
    releaseAwait();
    toast(msg.message || t("Error"));
  }
}

/** Take a completed state into S and draw it (or keep it while a finished trick is shown).
 * @param {StateMessage} msg */
function onState(msg) {
  if (S.holdTimer) {
    // Only the newest state is kept for after the pause (complete: see above).
    S.queued = msg;
    return;
  }
  const prev = { last: S.lastTrick, hadState: S.hadState, view: S.view, end: S.handEnd };
  S.table = msg.table || S.table;
  S.you = typeof msg.you === "number" ? msg.you : -1;
  S.view = asChosen(msg.view || null, msg.passing, S.you); // a pass phase played at once: as chosen
  S.lastTrick = msg.last_trick || null;
  S.handRounds = msg.hand_rounds || [];
  S.deadline = msg.deadline || null;
  S.winners = msg.winners || [];
  S.handEnd = msg.hand_end || null;
  if (!S.handEnd) S.nextSent = 0;
  S.hadState = true;
  $("conn-banner").hidden = true;
  releaseAwait();
  const dk = key(S.table && S.table.deck);
  if (dk !== S.deckKey) {
    S.deck = new Deck(S.table && S.table.deck);
    S.deckKey = dk;
  }
  if (prev.hadState) {
    announceChanges(prev.view, prev.last, prev.end);
    if (S.lastTrick && key(S.lastTrick) !== key(prev.last)) chime("trick");
    if (myTurn() && !(prev.view && prev.view.to_move === S.you && prev.view.legal.length)) chime("turn");
  }
  if (!S.view || S.view.phase !== "pass") S.passSel = [];
  else prunePasses();
  if (S.pendingWild && !(S.view && S.view.legal.includes(`${S.pendingWild}+`))) S.pendingWild = null;
  if (
    prev.hadState &&
    prev.view &&
    S.lastTrick &&
    key(S.lastTrick) !== key(prev.last) &&
    store.pref("pause", true)
  ) {
    S.holdTrick = S.lastTrick;
    S.holdTimer = setTimeout(endHoldTimer, holdMs(S.table));
  }
  redraw();
}

/** The pause that shows a finished trick is over: the trick goes to its winner, then the
 * state that came meanwhile is taken. */
function endHoldTimer() {
  const held = S.holdTrick;
  if (!held || waitingNext()) {
    endHold();
    return;
  }
  sweepTo(held.winner, endHold);
}

/** Take the state that came during the pause on a finished trick. */
export function endHold() {
  if (S.holdTimer) clearTimeout(S.holdTimer);
  S.holdTimer = null;
  S.holdTrick = null;
  const q = S.queued;
  S.queued = null;
  if (q) onState(q);
  else redraw();
}

export function releaseAwait() {
  S.awaiting = false;
  clearTimeout(S.awaitTimer);
}

/** Send a move; false (and a toast) when not connected. @param {string} move */
export function send(move) {
  if (!S.socket || !S.socket.send({ type: "play", move })) {
    toast(t("Not connected to the server: the move was not sent."));
    return false;
  }
  if (S.holdTimer) endHold();
  return true;
}

/** This seat has seen the hand's summary: Next hand. */
export function sendNext() {
  if (!S.handEnd || !S.socket || !S.socket.send({ type: "next" })) {
    toast(t("Not connected to the server: try again in a moment."));
    return;
  }
  S.nextSent = S.handEnd.hand;
  if (S.holdTimer) endHold();
  else redraw();
}

/** Play a card (the Wild picker closes); further clicks wait for the answer. @param {string} move */
export function sendPlay(move) {
  S.pendingWild = null;
  if (send(move)) {
    S.awaiting = true;
    S.awaitTimer = setTimeout(releaseAwait, 3000);
  }
}
