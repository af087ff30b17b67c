// The rules part of a form, shared by the home page's "Create a table" and the score sheet's
// setup: a preset or a rules file instead, the number of players, toppings and swap rounds,
// all offered as GET /api/options describes them.

import { escapeHtml } from "./api.js";

/** The controls, ids starting with `prefix`; the swaps and toppings are filled in later. */
function markup(prefix, playersLabel) {
  return `<div class="row">
  <div class="field">
    <label for="${prefix}-preset">Rules</label>
    <select id="${prefix}-preset"></select>
  </div>
  <div class="field" style="flex: 0 1 110px">
    <label for="${prefix}-players">${playersLabel}</label>
    <input type="number" id="${prefix}-players" min="3" max="8" value="4" />
  </div>
</div>
<div class="field">
  <label for="${prefix}-file">Or a rules file <small>(TOML, see docs/rules-files.md)</small></label>
  <input type="file" id="${prefix}-file" accept=".toml,text/plain" />
  <small id="${prefix}-file-note"></small>
</div>
<fieldset id="${prefix}-toppings-box" hidden>
  <legend>Toppings</legend>
  <div class="toppings" id="${prefix}-toppings"></div>
</fieldset>
<fieldset id="${prefix}-swaps-box" hidden>
  <legend>Swap rounds</legend>
  <div id="${prefix}-swaps"></div>
</fieldset>`;
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
 */
export function rulesForm(prefix, { players = "Players", onChange = () => {}, presetWithFile = false } = {}) {
  const $ = (name) => document.getElementById(`${prefix}-${name}`);
  $("rules").outerHTML = markup(prefix, escapeHtml(players));
  let options = { presets: [], toppings: [], swaps: {} };
  let rulesText = null; // the text of an uploaded rules file, used instead of the preset

  function preset() {
    if (rulesText !== null && !presetWithFile) return null;
    return options.presets.find((p) => p.name === $("preset").value) || null;
  }

  function render() {
    const chosen = preset();
    const count = $("players");
    if (chosen) {
      count.min = chosen.min_players;
      count.max = chosen.max_players;
      const v = Number(count.value);
      if (!v || v < chosen.min_players || v > chosen.max_players) count.value = chosen.default_players;
    } else {
      count.min = 2;
      count.max = 16;
    }
    // Toppings: where the rules take them (a rules file may); a choice survives a redraw.
    const tops = options.toppings || [];
    const ticked = new Set([...$("toppings").querySelectorAll("input:checked")].map((c) => c.value));
    $("toppings-box").hidden = !tops.length || !(rulesText !== null || !chosen || chosen.toppings);
    $("toppings").innerHTML = tops
      .map(
        (t) =>
          `<label class="check"><input type="checkbox" name="topping" value="${escapeHtml(t.name)}" ${
            ticked.has(t.name) ? "checked" : ""
          }> <span>${escapeHtml(t.text || t.name)}</span></label>`,
      )
      .join("");
    // Swaps: for each hand of the preset, a swap-in round may replace it.
    const swaps = chosen ? (options.swaps && options.swaps[chosen.name]) || [] : [];
    const slots = chosen ? chosen.hands || [] : [];
    $("swaps-box").hidden = !swaps.length || !slots.length;
    $("swaps").innerHTML = slots
      .map((h, i) => {
        if (h.swappable === false) return "";
        const opts = swaps.map((s) => `<option value="${escapeHtml(s.id)}">${escapeHtml(s.name)}</option>`).join("");
        return `<div class="swap-row"><span>${i + 1}. ${escapeHtml(h.name)}</span><select data-swap="${i + 1}" aria-label="Replace hand ${
          i + 1
        } (${escapeHtml(h.name)})"><option value="">keep</option>${opts}</select></div>`;
      })
      .join("");
    onChange();
  }

  $("players").addEventListener("input", () => onChange());
  $("preset").addEventListener("change", render);
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    rulesText = file ? await file.text() : null;
    $("preset").disabled = rulesText !== null;
    $("file-note").textContent = file ? `Using ${file.name} instead of a preset.` : "";
    render();
  });

  function setOptions(answer) {
    options = answer;
    $("preset").innerHTML = options.presets
      .map((p) => `<option value="${escapeHtml(p.name)}">${escapeHtml(p.title || p.name)}</option>`)
      .join("");
    const first = options.presets[0];
    if (first) $("players").value = first.default_players;
    render();
  }

  function request() {
    const body = rulesText !== null ? { rules_toml: rulesText } : { rules: $("preset").value };
    const toppings = [...$("toppings").querySelectorAll("input:checked")].map((c) => c.value);
    if (toppings.length && !$("toppings-box").hidden) body.toppings = toppings;
    const swap = {};
    for (const s of $("swaps").querySelectorAll("[data-swap]")) if (s.value) swap[s.dataset.swap] = s.value;
    if (Object.keys(swap).length) body.swap = swap;
    return body;
  }

  return { setOptions, request };
}
