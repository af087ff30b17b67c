// @ts-check
// Help against bots (docs/protocol.md, "Table talk, hints and undo"): at a table where every
// other seat is a bot, a Hint button on the status line asks the server for the expert's move
// (the card is highlighted in the hand and the status line says why) and an Undo button takes
// back your last move and the bots' moves after it. Elsewhere both buttons are hidden.

import { html, maybe, setHTML, toast, trusted } from "../dom.js";
import { t, tn } from "../i18n.js";
import { myTurn, S, seatName } from "./state.js";

/** @typedef {import("../messages.js").Hint} HintAnswer */

const A = {
  /** @type {HintAnswer | null} */
  hint: null,
  asking: false,
};

const HINT_ICON = trusted(
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2a7 7 0 0 0-4 12.7V17a1 1 0 0 0 1 1h6a1 1 0 0 0 1-1v-2.3A7 7 0 0 0 12 2zM9 20h6v1a1 1 0 0 1-1 1h-4a1 1 0 0 1-1-1z" fill="currentColor"/></svg>',
);
const UNDO_ICON = trusted(
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12.5 8c-2.6 0-5 1-6.9 2.6L2 7v9h9l-3.6-3.6A8 8 0 0 1 20.1 16l2.4-.8A10.5 10.5 0 0 0 12.5 8z" fill="currentColor"/></svg>',
);

/** The move number of the state this page shows. */
function movesNow() {
  const r = /** @type {{moves?: number} | null} */ (S.received);
  return r && typeof r.moves === "number" ? r.moves : -1;
}

/** Is this page a seat whose every other seat is a bot, in a game being played? */
export function againstBots() {
  const t = S.table;
  if (!t || S.watching || S.you < 0 || t.status !== "playing") return false;
  return t.seats.every((s, i) => i === S.you || s.kind === "bot");
}

/** The Hint and Undo buttons: made once, put at the end of the status line after each drawing
 * of it (hidden where they do not apply). */
const BUTTONS = document.createElement("span");
BUTTONS.className = "assist-buttons";

/** Make the Hint and Undo buttons, and watch the hand and the status line (the page draws
 * them afresh at each state) to put the buttons and the hint back. */
export function initAssist() {
  if (BUTTONS.childElementCount) return;
  for (const [id, icon, label, title, action] of /** @type {const} */ ([
    ["btn-hint", HINT_ICON, t("Hint"), t("A hint: the expert bot's card, and why"), askHint],
    ["btn-undo", UNDO_ICON, t("Undo"), t("Take back your last move (and the bots' moves after it)"), askUndo],
  ])) {
    const b = document.createElement("button");
    b.className = "assist-btn";
    b.id = id;
    b.type = "button";
    b.title = title;
    b.hidden = true;
    setHTML(b, html`${icon}<span class="label">${label}</span>`);
    b.onclick = action;
    BUTTONS.appendChild(b);
  }
  const watch = new MutationObserver(() => afterRender());
  for (const id of ["hand", "status"]) {
    const el = maybe(id);
    if (el) watch.observe(el, { childList: true });
  }
  afterRender();
}

function askHint() {
  if (!myTurn()) {
    toast(t("A hint is for your turn."));
    return;
  }
  if (A.asking) return;
  if (S.socket && S.socket.send({ type: "hint" })) {
    A.asking = true;
    afterRender();
  } else toast(t("Not connected to the server."));
}

function askUndo() {
  A.hint = null;
  if (!S.socket || !S.socket.send({ type: "undo" })) toast(t("Not connected to the server."));
}

/**
 * A message of the table's websocket, if it is help's; true when it was.
 * @param {import("../messages.js").ServerMessage} msg
 */
export function onAssistMessage(msg) {
  if (msg.type === "hint") {
    A.asking = false;
    A.hint = msg.moves === movesNow() ? msg : null;
    afterRender();
    return true;
  }
  if (msg.type === "undone") {
    A.hint = null;
    const n = Number(msg.count) || 0;
    const words =
      msg.seat === S.you
        ? tn("You took back {n} move.", "You took back {n} moves.", n)
        : tn("{name} took back {n} move.", "{name} took back {n} moves.", n, { name: seatName(Number(msg.seat)) });
    toast(words, "info");
    return true;
  }
  if (msg.type === "error") A.asking = false;
  return false;
}

/** After each drawing of the page (the hand and the status line are watched): the buttons,
 * and the hinted card while the hint holds. Changes only what differs, so that its own changes
 * do not call it again. */
export function afterRender() {
  const ok = againstBots();
  const hintBtn = BUTTONS.querySelector("#btn-hint");
  const undoBtn = BUTTONS.querySelector("#btn-undo");
  const phase = S.view ? S.view.phase : "";
  if (hintBtn instanceof HTMLButtonElement) {
    hintBtn.hidden = !ok || !myTurn();
    hintBtn.disabled = A.asking;
    hintBtn.classList.toggle("busy", A.asking);
  }
  if (undoBtn instanceof HTMLButtonElement) {
    undoBtn.hidden = !ok || phase === "over" || movesNow() <= 0;
  }
  if (A.hint && (A.hint.moves !== movesNow() || !myTurn() || !ok)) A.hint = null;
  const hint = A.hint;
  const card = hint ? hint.move.replace(/[+-]$/, "") : "";
  const hand = maybe("hand");
  if (hand) {
    for (const c of hand.querySelectorAll(".card.hinted")) {
      if (!(c instanceof HTMLElement) || c.dataset.code !== card) c.classList.remove("hinted");
    }
    const el = card && hand.querySelector(`.card[data-code="${CSS.escape(card)}"]`);
    if (el && !el.classList.contains("hinted")) el.classList.add("hinted");
  }
  const status = maybe("status");
  if (!status) return;
  if (ok && BUTTONS.parentElement !== status) status.appendChild(BUTTONS);
  else if (!ok && BUTTONS.parentElement) BUTTONS.remove();
  const old = status.querySelector(".hint-why");
  const words = hint ? hintWords(hint, card) : "";
  if (old && old.textContent === words) return;
  if (old) old.remove();
  if (!words) return;
  const why = document.createElement("span");
  why.className = "hint-why";
  why.textContent = words;
  status.appendChild(why);
}

/** The status line's words for a hint. @param {HintAnswer} hint @param {string} card */
function hintWords(hint, card) {
  const { move, reason } = hint;
  if (move.startsWith("trump:")) return t("Hint: pick {suit} — {reason}", { suit: suitName(move.slice(6)), reason });
  const name = S.deck.parse(card).wild ? S.deck.plainName(card) : S.deck.nameInText(card);
  if (move.endsWith("+")) return t("Hint: play {card} (high) — {reason}", { card: name, reason });
  return t("Hint: play {card} — {reason}", { card: name, reason });
}

/** @param {string} letter */
function suitName(letter) {
  const s = S.deck.suits.find((x) => x.letter === letter);
  return s ? t(s.name) : letter; // the ruleset's words: in the catalog
}
