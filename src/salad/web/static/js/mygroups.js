// @ts-check
// "Your groups" on the home page: the groups this browser's player is in, and making one.

import { api, errorText } from "./api.js";
import { $, html, join, setHTML, toast } from "./dom.js";
import { t } from "./i18n.js";
import { me } from "./me.js";

/** @typedef {{id: string, name: string, url: string, you_own: boolean}} GroupBrief */

async function start() {
  const box = $("my-groups");
  /** @type {GroupBrief[]} */
  let groups;
  try {
    if (!(await me())) return; // the player first (after a sign-in link's sign-in): the groups are theirs
    groups = await api("GET", "/api/groups");
  } catch {
    return; // no groups shown: the rest of the page works without them
  }
  setHTML(
    $("my-groups-list"),
    join(groups.map((g) => html`<li><a class="btn btn-small" href="${g.url}">${g.name}</a></li>`)),
  );
  $("my-groups-none").hidden = groups.length > 0;
  box.hidden = false;
  $("group-form").addEventListener("submit", makeGroup);
}

/** @param {Event} e */
async function makeGroup(e) {
  e.preventDefault();
  const name = $("group-name", HTMLInputElement).value.trim();
  if (!name) {
    toast(t("Please give the group a name."));
    return;
  }
  try {
    const made = await api("POST", "/api/groups", { name });
    location.href = made.url;
  } catch (err) {
    toast(errorText(err));
  }
}

start();
