// @ts-check
// The score sheet, the rules and the last trick: shown in the side panels and in the dialogs
// the top bar's buttons open (with the settings).

import { api, store } from "../api.js";
import { cardSVG, isFourColour, setFourColour, suitIcon } from "../cards.js";
import { $, html, join, maybe, setHTML } from "../dom.js";
import { t, tn } from "../i18n.js";
import { sheetTable, totalsChart } from "../scores.js";
import { chime, soundOn } from "./motion.js";
import { gameWinners, penaltiesOf, players, redraw, S, seatName, table, waitingNext } from "./state.js";

/** The paths already asked (askOnce). */
const asked = new Set();

/** GET `path` once; `keep` keeps the answer and the page is drawn again (nothing on an error).
 * @param {string} path @param {(answer: any) => void} keep */
export function askOnce(path, keep) {
  if (asked.has(path)) return;
  asked.add(path);
  api("GET", path)
    .then((answer) => {
      keep(answer);
      redraw();
    })
    .catch(() => {});
}

/**
 * What the server says about this table's rules in words (GET /api/tables/{id}/howto): the
 * toppings by name with a line each, and who picks trump and why.
 * @typedef {{toppings: {name: string, title: string, text: string}[], trump_chooser: {who: string, you: string, why: string} | null}} RulesWords
 */

/** @type {RulesWords | null} */
let words = null;

/** The table's rules in words, once the server has answered (asked once; a redraw follows). */
export function rulesWords() {
  if (S.tableId) askOnce(`/api/tables/${encodeURIComponent(S.tableId)}/howto`, (w) => (words = w));
  return words;
}

/** The score sheet and the chart of running totals. */
export function scoresHTML() {
  const tb = table();
  const v = S.view;
  const n = players();
  const names = Array.from({ length: n }, (_, i) => seatName(i));
  const points = v ? v.hand_points : [];
  // the rounds' names are the ruleset's words: in the catalog
  /** @type {import("../scores.js").SheetRow[]} */
  const hands = (tb.hands || []).map((h) => ({ number: h.number, round: t(h.round), points: null, marks: h.marks }));
  points.forEach((p, i) => {
    const r = S.handRounds[i];
    if (hands[i]) hands[i].points = p;
    else hands.push({ number: i + 1, round: r ? t(r.round) : t("Hand {n}", { n: i + 1 }), points: p });
  });
  const current = v && v.phase !== "over" && !waitingNext() ? v.hand : 0; // not the next hand's
  const totals = v ? v.totals : names.map(() => 0);
  const winners = v && v.phase === "over" ? gameWinners() : [];
  const running = v ? v.running : null;
  const sheet = sheetTable({ names, rows: hands, current, running, totals, winners, you: S.you, deck: S.deck });
  const chart = totalsChart({ names, pointsByHand: points, hands: hands.length, you: S.you });
  const goal = tb.highest_wins ? t("Highest total wins.") : t("Lowest total wins.");
  return html`${sheet}<p class="hint">${goal} ${t("Running penalties of this hand in the highlighted row.")}</p>${chart}`;
}

/** The toppings in play, each by name with what it does (the server's words, from the
 * toppings module); nothing without toppings. */
export function toppingsHTML() {
  const list = (S.table && S.table.topping_text) || [];
  if (!list.length) return html``;
  const items = list.map((text) => {
    const [name, words] = toppingParts(text);
    return words ? html`<li><b>${name}</b>${t(": ")}${words}</li>` : html`<li>${name}</li>`;
  });
  return html`<div class="panel toppings" id="toppings"><h2>${t("Toppings in play")}</h2><ul class="penalty-list">${items}</ul></div>`;
}

/**
 * A topping's line ("Name: what it does", the server's) as its name and its words, in the
 * page's language: the whole line is in the catalog (the toppings' texts), and the translation
 * keeps the same form.
 * @param {string} text
 * @returns {[string, string]}
 */
export function toppingParts(text) {
  const line = t(text); // the toppings' texts: in the catalog
  const at = line.indexOf(":");
  if (at < 0) return [line, ""];
  return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
}

/**
 * A penalty as the server says it ("Name: words ... points") with its name in the page's
 * language (the penalties' names are the ruleset's words: in the catalog); the words after it
 * are the server's.
 * @param {string} text
 */
export function penaltyText(text) {
  const at = text.indexOf(": ");
  if (at < 0) return t(text);
  return t("{name}: {words}", { name: t(text.slice(0, at)), words: text.slice(at + 2) });
}

/** What the numbers on a seat's plate mean. */
export function legendHTML() {
  return html`<p class="hint plate-legend" id="plate-legend"><b>${t("On each plate:")}</b> ${t("+N points this hand")} · ${t(
    "Σ total so far",
  )} · <span class="cards-key" aria-hidden="true">▮</span> ${t("cards in hand")}</p>`;
}

/** The penalties of every hand of the game (a topping's), when it has more than one. */
export function everyHand() {
  const all = table().hands || [];
  if (all.length < 2) return [];
  return penaltiesOf(all[0]).filter((_, k) => all.every((h) => h.penalties.includes(all[0].penalties[k])));
}

/** The hands of the game, with their penalties; a penalty of every hand (a topping's) is said
 * once, above them, not under each. */
export function rulesHTML() {
  const common = everyHand();
  // the rounds' names are the ruleset's words: in the catalog
  const hands = (table().hands || []).map(
    (h) =>
      html`<li><b>${t(h.round)}</b>${
        h.total !== undefined && h.total !== null ? html` <span class="hint">(${t("{n} in all", { n: h.total })})</span>` : ""
      }<br><span class="hint">${penaltiesOf(h)
        .filter((p) => !common.includes(p))
        .map(penaltyText)
        .join(" · ")}</span></li>`,
  );
  const every = common.length
    ? html`<p class="hint every-hand"><b>${t("Every hand:")}</b> ${common.map(penaltyText).join(" · ")}</p>`
    : "";
  return html`${every}<ol class="penalty-list">${hands}</ol>`;
}

/** The rules dialog: the deck, who wins, and the hands. */
function fullRulesHTML() {
  const tb = table();
  const d = S.deck;
  // the suits' and wilds' names and the title are the ruleset's words: in the catalog
  const suits = join(d.suits.map((s, i) => html`${suitIcon(d, i, 16)} ${t(s.name)}`), ", ");
  const ranks = d.ranks.map((r) => d.rankText(r)).join(" ");
  const wilds = d.wilds.map((w) => `${t(w.name)} (${w.symbol})`).join(", ");
  const tops = (tb.topping_text || []).length ? toppingsHTML() : "";
  const goal = tb.highest_wins
    ? tn("{n} players · highest total wins.", "{n} players · highest total wins.", players())
    : tn("{n} players · lowest total wins.", "{n} players · lowest total wins.", players());
  return html`<p><b>${tb.title ? t(tb.title) : tb.rules || ""}</b>${tb.rated ? html` <span class="rated-tag">${t("Rated")}</span>` : ""} · ${goal}</p>
<p>${t("Suits:")} ${suits}<br>${t("Ranks, low to high:")} ${ranks}${wilds ? html`<br>${t("Wild cards:")} ${wilds}` : ""}</p>${tops}${legendHTML()}
<p class="hint">${t("Follow the led suit if you can; the highest card of the led suit wins the trick and leads the next.")}</p>
${rulesHTML()}`;
}

/** The last finished trick, its winner's card marked. */
export function lastTrickHTML() {
  const lt = S.lastTrick;
  if (!lt) return html`<p class="hint">${t("No trick has been finished yet.")}</p>`;
  const figs = lt.cards.map(
    ([seat, code]) =>
      html`<figure class="${seat === lt.winner ? "won" : ""}" data-card="${code}">${cardSVG(
        S.deck,
        code,
      )}<figcaption>${seat === lt.leader ? t("{name} · led", { name: seatName(seat) }) : seatName(seat)}</figcaption></figure>`,
  );
  return html`<div class="last-trick">${figs}</div><p style="text-align:center">${t("{name} took it.", { name: seatName(lt.winner) })}</p>`;
}

/** Redraw the dialogs that are open (after a state). */
export function refreshDialogs() {
  if ($("dlg-scores", HTMLDialogElement).open) setHTML($("scores-body"), scoresHTML());
  if ($("dlg-last", HTMLDialogElement).open) setHTML($("last-body"), lastTrickHTML());
}

/**
 * A phone or a short screen: the top bar's tools (but Chat and Scores) are in a menu, each with its
 * label, opened by the Menu button; a choice, a tap elsewhere or Escape closes it. (CSS shows
 * the Menu button only on such screens; elsewhere the tools stand in the bar.)
 */
function wireMenu() {
  const button = $("btn-menu");
  const menu = $("tools-menu");
  const open = (/** @type {boolean} */ on) => {
    button.setAttribute("aria-expanded", String(on));
    menu.classList.toggle("open", on);
  };
  button.onclick = (e) => {
    e.stopPropagation();
    open(!menu.classList.contains("open"));
  };
  menu.addEventListener("click", () => open(false));
  document.addEventListener("click", (e) => {
    if (e.target instanceof Node && !menu.contains(e.target)) open(false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menu.classList.contains("open")) {
      open(false);
      button.focus();
    }
  });
}

/** The top bar: last trick, scores, the rules (the round line) and the settings. */
export function wireTools() {
  wireMenu();
  // The "How to play" link opens this table's own rules.
  const howto = maybe("link-howto", HTMLAnchorElement);
  if (howto && S.tableId) howto.href = `/table/${encodeURIComponent(S.tableId)}/howto`;
  $("btn-last").onclick = () => {
    setHTML($("last-body"), lastTrickHTML());
    $("dlg-last", HTMLDialogElement).showModal();
  };
  $("btn-scores").onclick = () => {
    setHTML($("scores-body"), S.table ? scoresHTML() : html``);
    $("dlg-scores", HTMLDialogElement).showModal();
  };
  $("round-line").onclick = () => {
    setHTML($("rules-body"), S.table ? fullRulesHTML() : html``);
    $("dlg-rules", HTMLDialogElement).showModal();
  };
  const four = $("opt-four", HTMLInputElement);
  const pause = $("opt-pause", HTMLInputElement);
  $("btn-settings").onclick = () => {
    four.checked = isFourColour();
    pause.checked = store.pref("pause", true);
    $("opt-sound", HTMLInputElement).checked = soundOn();
    const id = encodeURIComponent(S.tableId);
    setHTML(
      $("settings-links"),
      html`<a href="/watch/${id}" target="_blank" rel="noopener">${t("Watch link")}</a> · <a href="/">${t("Home")}</a>`,
    );
    $("dlg-settings", HTMLDialogElement).showModal();
    import("./pacepick.js").then((m) => m.pacePick()); // the table's pace, the host's to change
  };
  four.onchange = () => {
    setFourColour(four.checked);
    store.setPref("fourColour", four.checked);
    redraw();
  };
  pause.onchange = () => store.setPref("pause", pause.checked);
  const sound = $("opt-sound", HTMLInputElement);
  sound.checked = soundOn();
  sound.onchange = () => {
    store.setPref("sound", sound.checked);
    if (sound.checked) chime("turn"); // a sample, and browsers let audio start on a click
  };
}
