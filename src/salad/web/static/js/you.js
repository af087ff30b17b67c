// @ts-check
// The home page's "You" panel: the player this browser is (name, colour, language), sign-in
// codes to open it on another device (made, copied, revoked; a code typed, or the link
// /signin/CODE opened), the tables they are playing (rejoined by the cookie alone), and their
// data (exported, deleted).

import { api, errorText } from "./api.js";
import { $, html, setHTML, toast } from "./dom.js";
import { chooseLanguage, code as pageLanguage, date, t } from "./i18n.js";
import { me, meChanged, signInOver } from "./me.js";

/** @typedef {import("./me.js").Me} Me */
/** @typedef {{id: string, created_at: number, expires_at: number, state: string}} Link */
/** @typedef {Link & {code: string, url: string}} NewLink */
/** @typedef {{table_id: string, seat: number, name: string | null, status: string, game_number: number, url: string}} MyTable */

/** The swatches offered (any #rrggbb is accepted). */
const COLOURS = ["#c0392b", "#d35400", "#b7950b", "#1e8449", "#117a65", "#1f618d", "#6c3483", "#884ea0"];

const SIGNIN_PATH = /^\/signin\/([^/]+)\/?$/;

/** Kept for the page written in the identity's language: a sign-in happened (its name). */
const SIGNED_IN = "salad.signedIn";

/** @type {(name: string) => void} */
let onName = () => {};

/**
 * Mount the panel. `named` is told the player's name (to fill the page's name fields).
 * @param {(name: string) => void} named
 */
export async function mountYou(named) {
  onName = named;
  $("you-form").addEventListener("submit", (e) => {
    e.preventDefault();
    change({ name: $("you-name", HTMLInputElement).value.trim() || null });
  });
  // The panel's language and the page's switch are one choice (i18n.js keeps both).
  $("you-language", HTMLSelectElement).onchange = () => void chooseLanguage($("you-language", HTMLSelectElement).value);
  $("you-make").onclick = makeLink;
  $("you-signin").addEventListener("submit", (e) => {
    e.preventDefault();
    signIn($("you-code", HTMLInputElement).value);
  });
  $("you-devices").addEventListener("toggle", () => {
    if ($("you-devices", HTMLDetailsElement).open) listLinks();
  });
  $("you-delete").onclick = () => $("dlg-delete", HTMLDialogElement).showModal();
  $("you-delete-yes").onclick = deleteMe;
  const path = location.pathname.match(SIGNIN_PATH);
  if (path) {
    history.replaceState(null, "", "/");
    if (await signIn(decodeURIComponent(path[1]))) return; // the page is written anew
  }
  show(await me());
  const before = sessionStorage.getItem(SIGNED_IN);
  if (before !== null) {
    sessionStorage.removeItem(SIGNED_IN);
    signedIn(before || null);
  }
  deletedNote();
  listTables();
}

/** A swatch's name. @param {string} colour */
function colourLabel(colour) {
  return t("Colour {colour}", { colour });
}

/** The panel for this player. @param {Me | null} player */
function show(player) {
  const panel = $("you");
  panel.hidden = !player;
  if (!player) return;
  $("you-name", HTMLInputElement).value = player.name || "";
  const language = $("you-language", HTMLSelectElement);
  // The page's language where the panel offers it (the pseudo-locale is not offered).
  language.value = [...language.options].some((o) => o.value === pageLanguage) ? pageLanguage : player.language;
  panel.style.setProperty("--you", player.colour);
  setHTML(
    $("you-colours"),
    html`${COLOURS.map(
      (c) =>
        html`<button type="button" class="swatch" style="--swatch:${c}" data-colour="${c}" aria-label="${colourLabel(c)}" aria-pressed="${
          c === player.colour.toLowerCase() ? "true" : "false"
        }"></button>`,
    )}`,
  );
  for (const b of $("you-colours").querySelectorAll("button")) {
    b.addEventListener("click", () => change({ colour: b.dataset.colour }));
  }
  if (player.name) onName(player.name);
}

/** A change of the player's name, colour or language. @param {Record<string, unknown>} body */
async function change(body) {
  try {
    const now = await api("PATCH", "/api/me", body);
    meChanged(now);
    show(now);
    if ("name" in body) status(now.name ? t("Saved: you are {name}.", { name: now.name }) : t("Saved: no name."));
  } catch (err) {
    toast(errorText(err));
  }
}

/** Say something in the panel (and to screen readers), in view. @param {string} text */
function status(text) {
  const line = $("you-status");
  line.textContent = text;
  line.hidden = false;
  $("you").scrollIntoView({ block: "start" });
}

/** @param {number} seconds since the epoch */
function clock(seconds) {
  return date(seconds * 1000, { hour: "2-digit", minute: "2-digit" });
}

async function makeLink() {
  const box = $("you-new");
  try {
    /** @type {NewLink} */
    const made = await api("POST", "/api/me/links");
    const link = new URL(made.url, location.origin).href;
    const linkLabel = t("Sign-in link");
    setHTML(
      box,
      html`<p class="you-code" id="you-code-made">${made.code}</p>
<p class="you-link"><input type="text" readonly value="${link}" aria-label="${linkLabel}" id="you-link-made" />
<button class="btn btn-small" type="button" id="you-copy">${t("Copy")}</button></p>
<p class="hint">${t('Type the code on the other device (home page, "Have a code?") or open the link there. It works once, until {time}.', { time: clock(made.expires_at) })}</p>`,
    );
    box.hidden = false;
    $("you-copy").onclick = () => copy(link);
  } catch (err) {
    toast(errorText(err));
  }
  listLinks();
}

/** @param {string} text */
async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("Link copied."), "info");
  } catch {
    $("you-link-made", HTMLInputElement).select(); // the browser refused: selected, to copy by hand
  }
}

async function listLinks() {
  /** @type {Link[]} */
  let links;
  try {
    links = await api("GET", "/api/me/links");
  } catch (err) {
    toast(errorText(err));
    return;
  }
  setHTML(
    $("you-links"),
    html`${links.slice(0, 6).map(
      (l) => html`<li><span>${t("Made {time}", { time: clock(l.created_at) })}</span> <span class="you-state you-${l.state}">${linkState(l)}</span>${
        l.state === "open" ? html` <button class="btn btn-small btn-ghost" type="button" data-revoke="${l.id}">${t("Revoke")}</button>` : ""
      }</li>`,
    )}`,
  );
  for (const b of $("you-links").querySelectorAll("button")) {
    b.addEventListener("click", async () => {
      try {
        await api("DELETE", `/api/me/links/${encodeURIComponent(b.dataset.revoke || "")}`);
        $("you-new").hidden = true;
      } catch (err) {
        toast(errorText(err));
      }
      listLinks();
    });
  }
}

/** What the page says once signed in. @param {string | null} name */
function signedIn(name) {
  status(name ? t("Signed in: this browser is {name} now.", { name }) : t("Signed in: this browser is you now."));
}

/** A sign-in link's state in words. @param {Link} l */
function linkState(l) {
  if (l.state === "open") return t("open until {time}", { time: clock(l.expires_at) });
  if (l.state === "used") return t("used");
  if (l.state === "expired") return t("expired");
  if (l.state === "revoked") return t("revoked");
  return l.state;
}

/**
 * Sign this browser in with a code; true if the page is being written again in the identity's
 * language.
 * @param {string} code
 * @returns {Promise<boolean>}
 */
async function signIn(code) {
  try {
    /** @type {Me} */
    const now = await api("POST", "/api/signin", { code });
    meChanged(now);
    show(now);
    // The identity remembers its language: the page switches to it (and says so once there).
    if (now.language && now.language !== pageLanguage) {
      sessionStorage.setItem(SIGNED_IN, now.name || "");
      await chooseLanguage(now.language);
      return true;
    }
    signedIn(now.name);
    $("you-code", HTMLInputElement).value = "";
    listTables();
  } catch (err) {
    status(t("Not signed in: {error}", { error: errorText(err) }));
    signInOver();
  }
  return false;
}

async function listTables() {
  /** @type {MyTable[]} */
  let tables;
  try {
    tables = await api("GET", "/api/me/tables");
  } catch {
    return;
  }
  $("you-tables").hidden = !tables.length;
  setHTML(
    $("you-table-list"),
    html`${tables.map(
      (m) => html`<li><span>${
        m.status === "lobby"
          ? t("{name}, seat {seat}, in the lobby", { name: m.name || t("You"), seat: m.seat + 1 })
          : t("{name}, seat {seat}, game {game}", { name: m.name || t("You"), seat: m.seat + 1, game: m.game_number })
      }</span>
<a class="btn btn-small btn-primary" href="${m.url}">${t("Rejoin")}</a></li>`,
    )}`,
  );
}

async function deleteMe() {
  $("dlg-delete", HTMLDialogElement).close();
  try {
    await api("DELETE", "/api/me");
  } catch (err) {
    toast(errorText(err));
    return;
  }
  meChanged(null);
  location.replace("/?deleted=1");
}

/** What the page says after a deletion (the page loaded anew, a new player). */
function deletedNote() {
  if (new URLSearchParams(location.search).get("deleted") !== "1") return;
  history.replaceState(null, "", "/");
  status(t("Deleted: the site holds nothing about you now. This browser is a new player."));
}
