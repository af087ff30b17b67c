// @ts-check
// The score sheet's "Attach to a group" (in its final standings): the finished sheet this page
// keeps goes to one of the player's groups, each of its names a member or a guest, and then
// counts in the group's standings like a game played online.

import { api, errorText } from "./api.js";
import { $, html, join, setHTML, toast } from "./dom.js";
import { t } from "./i18n.js";

const STORE_KEY = "salad.scoresheet"; // where the sheet page keeps its sheet (js/sheet.js)

/** @typedef {{player: string, name: string | null}} Member */

/** @type {Member[]} */
let members = [];

/** The sheet the page keeps (salad-score/1), or null. */
function keptSheet() {
  try {
    const text = localStorage.getItem(STORE_KEY);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** @returns {string[]} */
function sheetNames() {
  const sheet = keptSheet();
  return sheet && Array.isArray(sheet.players) ? sheet.players.map(String) : [];
}

async function start() {
  /** @type {{id: string, name: string}[]} */
  let groups;
  try {
    await api("GET", "/api/me");
    groups = await api("GET", "/api/groups");
  } catch {
    return;
  }
  $("attach-group").hidden = false;
  $("attach-none").hidden = groups.length > 0;
  if (!groups.length) return;
  $("attach-form").hidden = false;
  $("attach-day", HTMLInputElement).value = new Date().toISOString().slice(0, 10);
  const select = $("attach-group-id", HTMLSelectElement);
  setHTML(select, join(groups.map((g) => html`<option value="${g.id}">${g.name}</option>`)));
  select.addEventListener("change", chooseGroup);
  $("attach-form").addEventListener("submit", attach);
  // The final standings show again after a fix: the names are read afresh each time.
  new MutationObserver(renderNames).observe($("final"), { attributes: true, attributeFilter: ["hidden"] });
  await chooseGroup();
}

async function chooseGroup() {
  const id = $("attach-group-id", HTMLSelectElement).value;
  try {
    members = (await api("GET", `/api/groups/${encodeURIComponent(id)}`)).members;
  } catch (err) {
    toast(errorText(err));
    members = [];
  }
  renderNames();
}

function renderNames() {
  const rows = sheetNames().map((name, i) => {
    const same = members.find((m) => (m.name || "").toLocaleLowerCase() === name.toLocaleLowerCase());
    const noName = t("(no name)");
    const guest = t("a guest");
    const options = members.map(
      (m) => html`<option value="${m.player}" ${same === m ? "selected" : ""}>${m.name || noName}</option>`,
    );
    return html`<label for="attach-seat-${i}">${name}</label><select id="attach-seat-${i}" data-name="${name}"><option value="">${guest}</option>${join(options)}</select>`;
  });
  setHTML($("attach-names"), join(rows));
}

/** @param {Event} e */
async function attach(e) {
  e.preventDefault();
  const id = $("attach-group-id", HTMLSelectElement).value;
  /** @type {Record<string, string | null>} */
  const chosen = {};
  for (const select of $("attach-names").querySelectorAll("select")) {
    chosen[select.getAttribute("data-name") || ""] = select.value || null;
  }
  const button = $("btn-attach", HTMLButtonElement);
  button.disabled = true;
  try {
    const body = { sheet: keptSheet(), members: chosen, played_on: $("attach-day", HTMLInputElement).value || undefined };
    await api("POST", `/api/groups/${encodeURIComponent(id)}/sheets`, body);
    const done = $("attach-done");
    const url = `/g/${encodeURIComponent(id)}`;
    // The link's words go in the sentence's place: "{standings}" in the translated sentence.
    const [before, after = ""] = t("Attached: it counts in the {standings}.").split("{standings}");
    const standings = t("group's standings");
    setHTML(done, html`${before}<a href="${url}">${standings}</a>${after}`);
    done.hidden = false;
  } catch (err) {
    toast(errorText(err));
  } finally {
    button.disabled = false;
  }
}

start();
