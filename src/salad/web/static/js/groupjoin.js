// @ts-check
// The invite landing /g/{id}/join?code=...: the group's name, and joining it in one click (with
// a name first, if this browser's player has none yet).

import { api, errorText, store } from "./api.js";
import { $, toast } from "./dom.js";
import { t, tn } from "./i18n.js";
import { loadPrefs, mountLogo } from "./ui.js";

const parts = location.pathname.split("/").filter(Boolean);
const groupId = decodeURIComponent(parts[1] || "");
const code = new URLSearchParams(location.search).get("code") || "";
const base = `/api/groups/${encodeURIComponent(groupId)}`;
const page = `/g/${encodeURIComponent(groupId)}`;

/** @type {string | null} */
let myName = null;

async function start() {
  loadPrefs();
  mountLogo($("logo"));
  try {
    myName = (await api("GET", "/api/me")).name;
    const invite = await api("GET", `${base}/invite?code=${encodeURIComponent(code)}`);
    if (invite.member) {
      location.replace(page);
      return;
    }
    $("gj-title").textContent = t("Join {group}", { group: invite.name });
    const n = invite.members;
    $("gj-info").textContent = tn(
      "You are invited to {group} ({n} member): its tables, its score sheets and its standings.",
      "You are invited to {group} ({n} members): its tables, its score sheets and its standings.",
      n,
      { group: invite.name },
    );
  } catch (err) {
    $("gj-info").textContent = errorText(err);
    return;
  }
  $("gj-form").hidden = false;
  if (!myName) {
    $("gj-name-field").hidden = false;
    $("gj-name", HTMLInputElement).value = store.name();
  }
  $("gj-form").addEventListener("submit", join);
}

/** @param {Event} e */
async function join(e) {
  e.preventDefault();
  const button = $("btn-gj", HTMLButtonElement);
  button.disabled = true;
  try {
    if (!myName) {
      const name = $("gj-name", HTMLInputElement).value.trim();
      if (name) {
        await api("PATCH", "/api/me", { name });
        store.setName(name);
      }
    }
    await api("POST", `${base}/join`, { code });
    location.href = page;
  } catch (err) {
    toast(errorText(err));
    button.disabled = false;
  }
}

start();
