// @ts-check
// What a seat chooses besides a plain card: the cards to pass, the trump suit, and whether a
// Wild is played high or low. Each shows in the felt's centre (the `#center` box).

import { suitIcon } from "../cards.js";
import { $, all, first, html, setHTML, toast } from "../dom.js";
import { t, tn } from "../i18n.js";
import { rememberPlayed } from "./motion.js";
import { rulesWords } from "./panels.js";
import { send, sendPlay } from "./protocol.js";
import {
  countOf,
  myTurn,
  passDirection,
  passNeeded,
  redraw,
  S,
  seatName,
  view,
  waitingNext,
} from "./state.js";

/**
 * A card of the hand clicked (or typed): chosen to pass, held for the Wild picker, or played.
 * @param {string} code
 * @param {HTMLElement} [el] the card clicked in the hand (it tells which of identical copies)
 */
export function playCard(code, el) {
  const v = S.view;
  if (!v || S.watching) return;
  if (v.phase === "pass") {
    if (!myTurn()) {
      toast(t("Wait for your turn to pass ({name} is choosing).", { name: seatName(v.to_move) }));
      return;
    }
    choosePass(code, el);
    return;
  }
  if (v.phase !== "play") return;
  if (S.awaiting) return;
  const refusal = whyNot(code);
  if (refusal) {
    toast(refusal);
    return;
  }
  rememberPlayed(code, el);
  if (myTurn() && v.legal.includes(code) && v.legal.includes(`${code}+`)) {
    S.pendingWild = code;
    redraw();
    const hi = first(document, "[data-wild='high']");
    if (hi) hi.focus();
    return;
  }
  sendPlay(myTurn() && !v.legal.includes(code) && v.legal.includes(`${code}+`) ? `${code}+` : code);
}

/**
 * Why a card of the hand cannot be played now, in a player's words ("You must follow Spades",
 * "Wait for Alice to play"), read from the view; "" when it can. Such a click is never sent.
 * @param {string} code
 */
export function whyNot(code) {
  const v = S.view;
  if (!v || v.phase !== "play") return "";
  if (waitingNext()) return t("The next hand starts once everyone has pressed Next hand.");
  if (v.to_move !== S.you) return t("Wait for {name} to play.", { name: seatName(v.to_move) });
  if (v.legal.includes(code) || v.legal.includes(`${code}+`)) return "";
  const ledIndex = v.led_suit ? S.deck.suits.findIndex((x) => x.letter === v.led_suit) : -1;
  const led = ledIndex >= 0 ? S.deck.suits[ledIndex] : null;
  const holdsLed = v.cards.some((c) => {
    const info = S.deck.parse(c);
    return !info.wild && info.suitIndex === ledIndex;
  });
  // the suit's name is the ruleset's words: in the catalog
  if (led && holdsLed) return t("You must follow {suit}: play one of your {suit}.", { suit: t(led.name) });
  return t("You cannot play that card now.");
}

/**
 * Choose a card to pass, or un-choose it; several copies of a card are chosen one by one.
 * @param {string} code
 * @param {HTMLElement} [el]
 */
function choosePass(code, el) {
  const sel = S.passSel;
  const free = countOf(view().legal, code); // copies not passed yet
  const chosen = countOf(sel, code);
  const unchoose = el ? el.classList.contains("selected") && chosen > 0 : chosen > 0 && chosen >= free;
  if (unchoose) sel.splice(sel.lastIndexOf(code), 1);
  else if (chosen >= free) {
    toast(free ? t("Every copy of that card you still hold is chosen.") : t("You already pass that card."));
    return;
  } else {
    const need = passNeeded();
    if (need && sel.length >= need) sel.shift();
    sel.push(code);
  }
  redraw();
}

/** A card as a passed one: a Wild is not declared high or low when it is passed. @param {string} code */
function passShort(code) {
  return S.deck.short(code).replace(/ [▲▼]$/, "");
}

function sendPasses() {
  const cards = [...S.passSel];
  S.passSel = [];
  for (const c of cards) if (!send(c)) break;
  redraw();
}

/** The pass phase: the seat to pass picks its cards, the others wait. @param {HTMLElement} box */
export function passPicker(box) {
  const v = view();
  if (myTurn()) {
    const need = passNeeded();
    const dir = passDirection();
    const chosen = [...S.passSel].map(passShort).join(" ");
    const ready = need ? S.passSel.length === need : S.passSel.length > 0;
    const head = passHead(need, dir);
    const count = S.passSel.length;
    setHTML(
      box,
      html`<div class="panel"><h2>${head}</h2><p class="hint">${t("Tap the cards to pass, then confirm.")} ${
        chosen ? html`${t("Chosen:")} <b>${chosen}</b>` : ""
      }</p><div class="choice"><button class="btn btn-primary" id="btn-pass" ${ready ? "" : "disabled"}>${
        count ? tn("Pass {n} card", "Pass {n} cards", count) : t("Pass cards")
      }</button></div></div>`,
    );
    $("btn-pass").onclick = sendPasses;
  } else if (S.watching) {
    setHTML(box, html`<div class="center-note">${t("The players are choosing cards to pass…")}</div>`);
  } else {
    const passed = v.passed.map(passShort).join(" ");
    setHTML(
      box,
      html`<div class="center-note">${passed ? `${t("You pass {cards}.", { cards: passed })} ` : ""}${t("Waiting for {name} to pass…", {
        name: seatName(v.to_move),
      })}</div>`,
    );
  }
}

/**
 * The pass panel's heading: how many cards (any number: "the cards"), and to whom.
 * @param {number} need @param {string} dir "left", "right", "across" or ""
 */
function passHead(need, dir) {
  if (dir === "left") return need ? tn("Pass {n} card to the left", "Pass {n} cards to the left", need) : t("Choose the cards to pass to the left");
  if (dir === "right")
    return need ? tn("Pass {n} card to the right", "Pass {n} cards to the right", need) : t("Choose the cards to pass to the right");
  if (dir === "across")
    return need ? tn("Pass {n} card across", "Pass {n} cards across", need) : t("Choose the cards to pass across");
  return need ? tn("Pass {n} card", "Pass {n} cards", need) : t("Choose the cards to pass");
}

/** The trump phase: the seat to choose gets a button per suit, the others wait. @param {HTMLElement} box */
export function trumpPicker(box) {
  const v = view();
  if (!myTurn()) {
    setHTML(box, html`<div class="center-note">${t("{name} is choosing the trump suit…", { name: seatName(v.to_move) })}</div>`);
    return;
  }
  const buttons = v.legal
    .filter((m) => m.startsWith("trump:"))
    .map((m) => {
      const letter = m.slice(6);
      const idx = S.deck.suits.findIndex((s) => s.letter === letter);
      const suit = S.deck.suits[idx];
      // the suit's name is the ruleset's words: in the catalog
      return html`<button class="btn" data-trump="${m}">${suitIcon(S.deck, idx, 22)} ${suit ? t(suit.name) : letter}</button>`;
    });
  const chooser = rulesWords()?.trump_chooser;
  const you = chooser ? chooser.you.charAt(0).toUpperCase() + chooser.you.slice(1) : "";
  const why = chooser ? html`<p class="trump-why" id="trump-why">${you}: ${chooser.why}.</p>` : "";
  setHTML(
    box,
    html`<div class="panel"><h2>${t("Pick the trump suit")}</h2>${why}<p class="hint">${t(
      "A trump beats any card of another suit; players still follow the led suit.",
    )}</p><div class="choice">${buttons}</div></div>`,
  );
  for (const b of all(box, "[data-trump]")) b.onclick = () => send(String(b.dataset.trump));
}

/** A Wild held (S.pendingWild): play it high or low, or put it back. @param {HTMLElement} box */
export function wildPicker(box) {
  // a Wild's name is the ruleset's words: in the catalog
  const name = t(S.deck.name(String(S.pendingWild)).replace(/, (high|low)$/, ""));
  setHTML(
    box,
    html`<div class="panel"><h2>${t("Play the {card}", { card: name })}</h2><p class="hint">${t(
      "High beats every card of the led suit; low loses to them.",
    )}</p><div class="choice">
<button class="btn btn-accent" data-wild="high">▲ ${t("High")}</button><button class="btn" data-wild="low">▼ ${t("Low")}</button><button class="btn btn-ghost" data-wild="cancel">${t(
      "Cancel",
    )}</button></div></div>`,
  );
  for (const b of all(box, "[data-wild]")) {
    b.onclick = () => {
      const code = S.pendingWild;
      if (b.dataset.wild === "high") sendPlay(`${code}+`);
      else if (b.dataset.wild === "low") sendPlay(String(code));
      else {
        S.pendingWild = null;
        redraw();
      }
    };
  }
}
