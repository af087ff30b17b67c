// The invite link /join/{id}: pick a display name, take the first open seat.

import { api, escapeHtml, store, tableIdFromPath, toast } from "./api.js";
import { loadPrefs, mountLogo } from "./ui.js";

const $ = (id) => document.getElementById(id);
const tableId = tableIdFromPath();
const enc = encodeURIComponent(tableId || "");

async function start() {
  loadPrefs();
  mountLogo($("logo"));
  $("join-watch").href = `/watch/${enc}`;
  if (store.token(tableId)) {
    // This browser already holds a seat here: go back to it.
    location.replace(`/table/${enc}`);
    return;
  }
  $("j-name").value = store.name();
  $("join-form").addEventListener("submit", join);
  try {
    const lobby = await api("GET", `/api/tables/${enc}`);
    const host = lobby.seats.find((s) => s.seat === lobby.host) || lobby.seats[lobby.host] || {};
    const open = lobby.seats.filter((s) => s.kind === "open").length;
    $("join-title").textContent = `Join ${lobby.title || "the table"}`;
    if (lobby.status !== "lobby") {
      $("join-info").innerHTML = "This game has already started: you can watch it.";
      $("btn-join").disabled = true;
    } else if (!open) {
      $("join-info").innerHTML = "Every seat is taken: you can watch.";
      $("btn-join").disabled = true;
    } else {
      $("join-info").innerHTML = `${escapeHtml(host.name || "The host")} invites you: ${open} open seat${
        open > 1 ? "s" : ""
      } of ${lobby.seats.length}.`;
    }
  } catch (err) {
    $("join-info").textContent = err.message;
    $("btn-join").disabled = true;
  }
}

async function join(e) {
  e.preventDefault();
  const name = $("j-name").value.trim();
  if (!name) {
    toast("Please give a display name.");
    return;
  }
  store.setName(name);
  const btn = $("btn-join");
  btn.disabled = true;
  try {
    const r = await api("POST", `/api/tables/${enc}/join`, { name });
    store.setToken(tableId, r.token);
    location.href = `/table/${enc}`;
  } catch (err) {
    toast(err.message);
    btn.disabled = false;
  }
}

start();
