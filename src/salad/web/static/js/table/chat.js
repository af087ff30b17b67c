// @ts-check
// Table talk (docs/protocol.md, "Table talk, hints and undo"): chat lines and quick reactions,
// shown as a bubble beside the speaker's seat plate (it fades) and in a small chat panel. The
// chat can be muted on this page (remembered in localStorage). Lines are text: they go into the
// page only through the escaping `html` template.

import { store } from "../api.js";
import { $, html, maybe, setHTML, toast, trusted } from "../dom.js";
import { t, tn } from "../i18n.js";
import { isHost, nameYou, S } from "./state.js";

/** @typedef {import("../messages.js").ChatLine} ChatLine a chat line as the server sends it */

/** The quick reactions (the server's EMOTES) and their words in the page's language;
 * emotes.js draws them. */
export const EMOTES = [
  ["nice", t("Nice")],
  ["haha", t("Haha")],
  ["wow", t("Wow")],
  ["ouch", t("Ouch")],
  ["gg", t("Well played")],
  ["oops", t("Oops")],
];

/** @type {(name: string) => string} */
let picture = () => "";

const LIMIT = 200;
const KEEP = 50;
const BUBBLE_MS = 5000;

const T = {
  /** @type {ChatLine[]} */
  lines: [],
  spectators: false,
  muted: false,
  open: false,
  unread: 0,
};

const CHAT_ICON = trusted(
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" fill="currentColor"/></svg>',
);

/** A reaction's word. @param {string | undefined} name */
function emoteOf(name) {
  const found = EMOTES.find(([n]) => n === name);
  return found ? found[1] : String(name);
}

/** What a line says, as text. @param {ChatLine} line */
function said(line) {
  return line.text !== undefined ? line.text : emoteOf(line.emote);
}

/** What a line says, a reaction with its picture. @param {ChatLine} line */
function saidHTML(line) {
  return line.text !== undefined ? html`${line.text}` : html`${trusted(picture(String(line.emote)))} ${emoteOf(line.emote)}`;
}

/** Load the reactions' pictures, then `then`. @param {() => void} then */
function withPictures(then) {
  import("./emotes.js").then((m) => {
    picture = m.emotePicture;
    then();
  });
}

/** Add the chat's tool button and panel to the page (once). */
export function initChat() {
  T.muted = Boolean(store.pref("chatMuted", false));
  const tools = document.querySelector(".topbar .tools");
  if (tools && !maybe("btn-chat")) {
    const b = document.createElement("button");
    b.className = "tool";
    b.id = "btn-chat";
    b.type = "button";
    b.title = t("Table talk");
    b.setAttribute("aria-pressed", "false");
    b.setAttribute("aria-controls", "chat-panel");
    tools.prepend(b);
    b.onclick = () => setOpen(!T.open);
  }
  const panel = document.createElement("section");
  panel.id = "chat-panel";
  panel.className = "chat-panel";
  panel.hidden = true;
  panel.setAttribute("aria-label", t("Table talk"));
  document.body.appendChild(panel);
  // Keys typed here are the chat's, not the table's (keyboard.js types cards); Esc closes.
  panel.addEventListener("keydown", (e) => {
    e.stopPropagation();
    if (e.key === "Escape") {
      setOpen(false);
      const b = maybe("btn-chat");
      if (b) b.focus();
    }
  });
  drawButton();
  drawPanel();
}

/** @param {boolean} open */
function setOpen(open) {
  T.open = open;
  if (open) T.unread = 0;
  $("chat-panel").hidden = !open;
  drawButton();
  if (open) {
    withPictures(() => {
      if (!T.open) return;
      drawPanel();
      const input = maybe("chat-input", HTMLInputElement);
      if (input && !input.disabled && window.innerWidth >= 640) input.focus();
    });
  }
}

function drawButton() {
  const b = maybe("btn-chat");
  if (!b) return;
  b.setAttribute("aria-pressed", String(T.open));
  const unread = tn("{n} new", "{n} new", T.unread);
  const badge = T.unread && !T.muted ? html`<span class="chat-unread" aria-label="${unread}">${T.unread}</span>` : "";
  const label = t("Chat");
  setHTML(b, html`${CHAT_ICON}<span class="label">${label}</span>${badge}`);
}

/** May this page write in the chat? */
function canWrite() {
  return S.you >= 0 || T.spectators;
}

function drawPanel() {
  const panel = maybe("chat-panel");
  if (!panel) return;
  const write = canWrite();
  const host = isHost();
  // What is typed survives a redraw.
  const before = maybe("chat-input", HTMLInputElement);
  const typing = before ? before.value : "";
  const focused = before !== null && document.activeElement === before;
  // The panel's words, outside the markup (make i18n reads no call inside a template).
  const W = {
    muted: t("The chat is muted on this page."),
    empty: t("No messages yet."),
    title: t("Table talk"),
    mute: T.muted ? t("Unmute") : t("Mute"),
    close: t("Close the chat"),
    placeholder: t("Say something…"),
    message: t("Chat message"),
    send: t("Send"),
    readOnly: t("Spectators can read the chat; the host may let them write."),
    spectators: t("Spectators may chat"),
  };
  /** @param {ChatLine} l */
  const speaker = (l) => t("{name}:", { name: nameYou(l.seat, l.name) });
  const log = T.muted
    ? html`<p class="chat-muted-note">${W.muted}</p>`
    : T.lines.length
      ? html`${T.lines.map(
          (l) =>
            html`<li class="${l.emote ? "emote" : ""}"><b>${speaker(l)}</b> <span>${saidHTML(l)}</span></li>`,
        )}`
      : html`<li class="chat-empty">${W.empty}</li>`;
  setHTML(
    panel,
    html`<div class="chat-head"><h2>${W.title}</h2>
<button type="button" class="chat-mute" id="chat-mute" aria-pressed="${String(T.muted)}">${W.mute}</button>
<button type="button" class="close" id="chat-close" aria-label="${W.close}">×</button></div>
${T.muted ? log : html`<ul class="chat-log" id="chat-log" aria-live="polite">${log}</ul>`}
${
  write
    ? html`<div class="chat-emotes">${EMOTES.map(
        ([name, label]) => html`<button type="button" data-emote="${name}">${trusted(picture(name))} ${label}</button>`,
      )}</div>
<form class="chat-form" id="chat-form"><input id="chat-input" type="text" maxlength="${LIMIT}" autocomplete="off" placeholder="${W.placeholder}" aria-label="${W.message}" /><button type="submit" class="btn btn-primary">${W.send}</button></form>`
    : html`<p class="chat-note">${W.readOnly}</p>`
}
${
  host
    ? html`<label class="check chat-spec"><input type="checkbox" id="chat-spectators" ${T.spectators ? "checked" : ""} /> ${W.spectators}</label>`
    : ""
}`,
  );
  $("chat-close").onclick = () => setOpen(false);
  $("chat-mute").onclick = () => {
    T.muted = !T.muted;
    store.setPref("chatMuted", T.muted);
    if (T.muted) for (const b of document.querySelectorAll(".chat-bubble")) b.remove();
    drawPanel();
    drawButton();
  };
  for (const b of panel.querySelectorAll("[data-emote]")) {
    if (b instanceof HTMLElement) b.onclick = () => sendChat({ emote: b.dataset.emote });
  }
  const form = maybe("chat-form", HTMLFormElement);
  const input = maybe("chat-input", HTMLInputElement);
  if (input && typing) input.value = typing;
  if (input && focused) input.focus();
  if (form) {
    form.onsubmit = (e) => {
      e.preventDefault();
      const input = $("chat-input", HTMLInputElement);
      const text = input.value.trim();
      if (!text) return;
      if (text.length > LIMIT) {
        toast(tn("A chat message is at most {n} character.", "A chat message is at most {n} characters.", LIMIT));
        return;
      }
      if (sendChat({ text })) input.value = "";
    };
  }
  const spec = maybe("chat-spectators", HTMLInputElement);
  if (spec) spec.onchange = () => send({ type: "chat_settings", spectators: spec.checked });
  const list = maybe("chat-log");
  if (list) list.scrollTop = list.scrollHeight;
}

/** @param {object} msg */
function send(msg) {
  if (!S.socket || !S.socket.send(msg)) {
    toast(t("Not connected to the server: the message was not sent."));
    return false;
  }
  return true;
}

/** @param {{text?: string, emote?: string}} what */
function sendChat(what) {
  return send({ type: "chat", ...what });
}

/**
 * A message of the table's websocket, if it is the chat's; true when it was.
 * @param {import("../messages.js").ServerMessage} msg
 */
export function onChatMessage(msg) {
  if (msg.type === "chat") {
    const line = msg;
    T.lines.push(line);
    if (T.lines.length > KEEP) T.lines.splice(0, T.lines.length - KEEP);
    if (!T.muted) {
      if (line.emote) withPictures(() => bubble(line));
      else bubble(line);
      if (!T.open) T.unread += 1;
    }
  } else if (msg.type === "chat_log") {
    T.lines = Array.isArray(msg.lines) ? msg.lines.slice(-KEEP) : [];
    T.spectators = Boolean(msg.spectators);
    if (T.lines.some((l) => l.emote)) withPictures(drawPanel);
  } else if (msg.type === "chat_settings") {
    T.spectators = Boolean(msg.spectators);
  } else return false;
  drawButton();
  drawPanel();
  return true;
}

/** A bubble beside the speaker's seat plate, fading after a few seconds. @param {ChatLine} line */
function bubble(line) {
  const felt = maybe("felt");
  const plate = felt && felt.querySelector(`.seat[data-seat="${line.seat}"]`);
  if (!felt || !(plate instanceof HTMLElement)) return;
  for (const old of felt.querySelectorAll(`.chat-bubble[data-seat="${line.seat}"]`)) old.remove();
  const f = felt.getBoundingClientRect();
  const p = plate.getBoundingClientRect();
  const el = document.createElement("div");
  el.className = `chat-bubble${line.emote ? " emote" : ""}`;
  el.dataset.seat = String(line.seat);
  const below = p.top + p.height / 2 < f.top + f.height / 2;
  el.classList.add(below ? "below" : "above");
  el.style.left = "0px"; // measured there (below), then moved
  el.style.top = `${below ? p.bottom - f.top + 6 : p.top - f.top - 6}px`;
  setHTML(el, saidHTML(line));
  el.title = t("{name}: {text}", { name: line.name, text: said(line) });
  felt.appendChild(el);
  // Centred on the plate, but whole inside the felt however long its words (a language's).
  const half = Math.min(el.offsetWidth / 2 + 4, f.width / 2);
  const x = Math.min(Math.max(p.left + p.width / 2 - f.left, half), f.width - half);
  el.style.left = `${x}px`;
  setTimeout(() => el.remove(), BUBBLE_MS);
}
