// @ts-check
// The rules part of a form, shared by the home page's "Create a table" and the score sheet's
// setup: a preset or a rules file instead, the number of players, toppings and swap rounds,
// all offered as GET /api/options describes them.

import { $ as byId, all, html, setHTML } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {import("./types.js").Options} Options */
/** @typedef {import("./types.js").Preset} Preset */

/**
 * The controls, ids starting with `prefix`; the swaps and toppings are filled in later.
 * @param {string} prefix
 * @param {string} playersLabel
 */
function markup(prefix, playersLabel) {
  const [fileBefore, fileAfter = ""] = t(
    "House rules written down as a text file (TOML): the rules it starts from, then what you change, one setting a line (for example {example}). Whoever wrote your house rules can give you one.",
  ).split("{example}");
  return html`<div class="row">
  <div class="field">
    <label for="${prefix}-preset">${t("Rules")}</label>
    <select id="${prefix}-preset"></select>
  </div>
  <div class="field" style="flex: 0 1 110px">
    <label for="${prefix}-players">${playersLabel}</label>
    <input type="number" id="${prefix}-players" min="3" max="8" value="4" />
  </div>
</div>
<div class="field">
  <label for="${prefix}-file">${t("Or a rules file")}</label>
  <input type="file" id="${prefix}-file" accept=".toml,text/plain" aria-describedby="${prefix}-file-what" />
  <small id="${prefix}-file-note"></small>
  <small id="${prefix}-file-what">${fileBefore}<code>jokers = 2</code>${fileAfter}</small>
</div>
<fieldset id="${prefix}-toppings-box" hidden>
  <legend>${t("Toppings")}</legend>
  <div class="toppings" id="${prefix}-toppings"></div>
</fieldset>
<fieldset id="${prefix}-swaps-box" hidden>
  <legend>${t("Swap rounds")}</legend>
  <p class="hint">${t("A hand's round may be replaced by another of these rules' rounds:")}</p>
  <ul class="hint" id="${prefix}-swap-notes"></ul>
  <div id="${prefix}-swaps"></div>
</fieldset>`;
}

/**
 * One hand's swap choice: keep its round, or one of the swap-in rounds `opts`.
 * @param {number} n the hand's number
 * @param {string} name its round's name
 * @param {import("./dom.js").Html[]} opts
 */
function swapRow(n, name, opts) {
  const label = t("Replace hand {n} ({name})", { n, name });
  const keep = t("keep");
  return html`<div class="swap-row"><span>${n}. ${name}</span><select data-swap="${n}" aria-label="${label}"><option value="">${keep}</option>${opts}</select></div>`;
}

/**
 * Puts the controls in place of the page's element `#<prefix>-rules`, with ids that start with
 * `prefix`: `-preset` (a select), `-players` (a number labelled `players`), `-file` and
 * `-file-note`, `-toppings-box` holding `-toppings`, `-swaps-box` holding `-swaps`.
 *
 * onChange: called after the controls are redrawn and when the number of players changes (the
 * page redraws what depends on it: seats, names).
 * presetWithFile: a rules file leaves the chosen preset's player range and swap rounds in place
 * (the home page) instead of putting the preset aside altogether (the score sheet).
 *
 * Returns {setOptions(options), request()}: setOptions fills the preset list from the answer of
 * GET /api/options (its first preset chosen, with its usual number of players) and draws the
 * rest; request() is the rules part of a request body: {rules} or {rules_toml}, and {toppings}
 * and {swap} when chosen.
 * @param {string} prefix
 * @param {{players?: string, onChange?: () => void, presetWithFile?: boolean}} [options]
 */
export function rulesForm(prefix, { players = t("Players"), onChange = () => {}, presetWithFile = false } = {}) {
  /**
   * The control `name` of this form.
   * @template {Element} T
   * @param {string} name
   * @param {new (...args: any[]) => T} type
   * @returns {T}
   */
  const control = (name, type) => byId(`${prefix}-${name}`, type);
  /** @param {string} name */
  const $ = (name) => byId(`${prefix}-${name}`);
  $("rules").outerHTML = markup(prefix, players).text;
  /** @type {Options} */
  let options = { presets: [], toppings: [], swaps: {}, swap_text: {} };
  /** @type {string | null} */
  let rulesText = null; // the text of an uploaded rules file, used instead of the preset

  /** @returns {Preset | null} */
  function preset() {
    if (rulesText !== null && !presetWithFile) return null;
    return options.presets.find((p) => p.name === control("preset", HTMLSelectElement).value) || null;
  }

  function render() {
    const chosen = preset();
    const count = control("players", HTMLInputElement);
    if (chosen) {
      count.min = String(chosen.min_players);
      count.max = String(chosen.max_players);
      const v = Number(count.value);
      if (!v || v < chosen.min_players || v > chosen.max_players) count.value = String(chosen.default_players);
    } else {
      count.min = "2";
      count.max = "16";
    }
    // Toppings: where the rules take them (a rules file may); a choice survives a redraw.
    const tops = options.toppings || [];
    const ticked = new Set(all($("toppings"), "input:checked", HTMLInputElement).map((c) => c.value));
    $("toppings-box").hidden = !tops.length || !(rulesText !== null || !chosen || chosen.toppings);
    setHTML(
      $("toppings"),
      html`${tops.map(
        (top) =>
          // the ruleset's words: in the catalog
          html`<label class="check"><input type="checkbox" name="topping" value="${top.name}" ${
            ticked.has(top.name) ? "checked" : ""
          }> <span>${top.text ? t(top.text) : top.name}</span></label>`,
      )}`,
    );
    // Swaps: for each hand of the preset, a swap-in round may replace it.
    const swaps = chosen ? (options.swaps && options.swaps[chosen.name]) || [] : [];
    const slots = chosen ? chosen.hands || [] : [];
    $("swaps-box").hidden = !swaps.length || !slots.length;
    const texts = (chosen && options.swap_text && options.swap_text[chosen.name]) || {};
    setHTML(
      $("swap-notes"),
      // the ruleset's words (round names): in the catalog
      html`${swaps.map((s) => html`<li><b>${t(s.name)}</b>${texts[s.id] ? t(": {text}", { text: t(texts[s.id]) }) : ""}</li>`)}`,
    );
    setHTML(
      $("swaps"),
      html`${slots.map((h, i) => {
        if (h.swappable === false) return "";
        const opts = swaps.map((s) => html`<option value="${s.id}" title="${texts[s.id] || ""}">${t(s.name)}</option>`);
        return swapRow(i + 1, t(h.name), opts);
      })}`,
    );
    onChange();
  }

  $("players").addEventListener("input", () => onChange());
  $("preset").addEventListener("change", render);
  $("file").addEventListener("change", async () => {
    const files = control("file", HTMLInputElement).files;
    const file = files && files[0];
    rulesText = file ? await file.text() : null;
    control("preset", HTMLSelectElement).disabled = rulesText !== null;
    $("file-note").textContent = file ? t("Using {file} instead of a preset.", { file: file.name }) : "";
    render();
  });

  /** @param {Options} answer */
  function setOptions(answer) {
    options = answer;
    setHTML($("preset"), html`${options.presets.map((p) => html`<option value="${p.name}">${p.title ? t(p.title) : p.name}</option>`)}`);
    const first = options.presets[0];
    if (first) control("players", HTMLInputElement).value = String(first.default_players);
    render();
  }

  /** @returns {Record<string, unknown>} */
  function request() {
    /** @type {Record<string, unknown>} */
    const body = rulesText !== null ? { rules_toml: rulesText } : { rules: control("preset", HTMLSelectElement).value };
    const toppings = all($("toppings"), "input:checked", HTMLInputElement).map((c) => c.value);
    if (toppings.length && !$("toppings-box").hidden) body.toppings = toppings;
    /** @type {Record<string, string>} */
    const swap = {};
    for (const s of all($("swaps"), "[data-swap]", HTMLSelectElement)) if (s.value) swap[String(s.dataset.swap)] = s.value;
    if (Object.keys(swap).length) body.swap = swap;
    return body;
  }

  return { setOptions, request };
}
