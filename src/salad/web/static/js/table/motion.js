// @ts-check
// Motion and sound at the table: a card played flies from its hand (or its player's plate) to
// the trick, a finished trick goes to its winner; both skipped when the system asks for reduced
// motion. A soft tone (synthesized with Web Audio, no sound file) for your turn and each trick
// won, off until switched on in Settings (remembered in localStorage as `salad.pref.sound`).

import { store } from "../api.js";
import { all, html } from "../dom.js";
import { t } from "../i18n.js";

/** @typedef {import("../messages.js").Lobby["pace"]} Pace */

/** A table's paces, slowest first, as the host picks one (the server's `pace`). @type {Pace[]} */
export const PACES = ["slow", "normal", "fast"];

/** The pace this browser's host last chose (kept as `salad.pref.pace`), for the next table. @returns {Pace} */
export function keptPace() {
  const kept = store.pref("pace", "normal");
  return PACES.find((p) => p === kept) || "normal";
}

/** Keep the pace a host chose, for the next table. @param {string} pace */
export function keepPace(pace) {
  if (PACES.some((p) => p === pace)) store.setPref("pace", pace);
}

/** A pace in the page's language. @param {Pace} pace */
export function paceName(pace) {
  return { slow: t("slow"), normal: t("normal"), fast: t("fast") }[pace];
}

/** The pace's `<option>`s, `chosen` selected. @param {string} chosen */
export function paceOptions(chosen) {
  return PACES.map((p) => html`<option value="${p}" ${p === chosen ? "selected" : ""}>${paceName(p)}</option>`);
}

const SWEEP_MS = 300;

/** How long a finished trick stays in place before it goes to its winner (ms): the table's
 * pause after a trick (`trick_pause`, seconds; 1.4 before it said one), less the sweep.
 * @param {{ trick_pause?: number } | null} t the lobby */
export function holdMs(t) {
  const pause = t && typeof t.trick_pause === "number" ? t.trick_pause : 1.4;
  return Math.max(0, Math.round(pause * 1000) - SWEEP_MS);
}

/** Where the card this page just played was in the hand: it flies from there. */
const from = { code: "", rect: /** @type {DOMRect | null} */ (null) };

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Remember the hand card played, to fly it from there. @param {string} code @param {HTMLElement | undefined} el */
export function rememberPlayed(code, el) {
  from.code = code;
  from.rect = el ? el.getBoundingClientRect() : null;
}

/** @param {Element} el */
function centre(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** The trick's new cards fly in: this page's from its hand, the others' from their plates.
 * @param {HTMLElement} trick @param {number} you */
export function flyIn(trick, you) {
  if (reducedMotion()) return;
  for (const card of all(trick, ".trick-card.fresh")) {
    const seat = Number(card.dataset.seat);
    let start = null;
    if (seat === you && from.rect && from.code === card.dataset.card) {
      start = { x: from.rect.left + from.rect.width / 2, y: from.rect.top + from.rect.height / 2 };
    } else {
      const plate = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
      if (plate) start = centre(plate);
    }
    if (!start) continue;
    const end = centre(card);
    card.classList.remove("fresh");
    card.animate(
      [{ translate: `${start.x - end.x}px ${start.y - end.y}px`, opacity: 0.6 }, { translate: "0 0", opacity: 1 }],
      { duration: 260, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
  }
  from.code = "";
  from.rect = null;
}

/** A finished trick goes to its winner's plate; `done` runs when it has (at once without motion).
 * @param {number} winner @param {() => void} done */
export function sweepTo(winner, done) {
  const cards = all(document, "#trick .trick-card");
  const plate = document.querySelector(`#seats .seat[data-seat="${winner}"]`);
  if (reducedMotion() || !cards.length || !plate) {
    done();
    return;
  }
  const target = centre(plate);
  const moves = cards.map((card) => {
    const c = centre(card);
    return card.animate(
      [{ translate: "0 0", scale: "1", opacity: 1 }, { translate: `${target.x - c.x}px ${target.y - c.y}px`, scale: "0.4", opacity: 0 }],
      { duration: SWEEP_MS, easing: "ease-in", fill: "forwards" },
    ).finished;
  });
  Promise.all(moves).then(done, done);
}

/** @type {AudioContext | null} */
let audio = null;

export function soundOn() {
  return Boolean(store.pref("sound", false));
}

/** A soft tone: "turn" (your turn) or "trick" (a trick won), when sounds are on. @param {"turn" | "trick"} kind */
export function chime(kind) {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const t = audio.currentTime;
    const notes = kind === "turn" ? [660, 880] : [523];
    notes.forEach((freq, i) => {
      if (!audio) return;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const at = t + i * 0.12;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.07, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.32);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.35);
    });
  } catch {
    // No audio here (a browser without Web Audio): play on silently.
  }
}
