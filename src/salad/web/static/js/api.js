// REST calls, the websocket, and what the browser remembers (tokens, name, preferences).

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** Call the REST API; resolves to the JSON answer, rejects with an ApiError holding its message. */
export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(`cannot reach the server (${err.message})`, 0);
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    let message = data && (data.error || data.detail);
    if (Array.isArray(message)) message = message.map((d) => d.msg || JSON.stringify(d)).join("; ");
    if (message && typeof message !== "string") message = JSON.stringify(message);
    throw new ApiError(message || `${response.status} ${response.statusText}`, response.status);
  }
  return data;
}

const PREFIX = "salad.";

function get(key) {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function set(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    /* private mode: nothing is remembered */
  }
}

export const store = {
  token: (tableId) => get(`token.${tableId}`),
  setToken: (tableId, token) => set(`token.${tableId}`, token),
  name: () => get("name") || "",
  setName: (name) => set("name", name),
  pref: (key, fallback) => {
    const v = get(`pref.${key}`);
    return v === null ? fallback : JSON.parse(v);
  },
  setPref: (key, value) => set(`pref.${key}`, JSON.stringify(value)),
};

/** The table id of a page path such as /table/abc or /watch/abc. */
export function tableIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts.length >= 2 ? decodeURIComponent(parts[1]) : null;
}

/**
 * A websocket that reconnects by itself. `onMessage(msg)` gets every parsed message,
 * `onStatus("open"|"closed"|"connecting")` follows the connection.
 */
export class Socket {
  constructor(tableId, token, onMessage, onStatus) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.retry = 0;
    this.closed = false;
    this.ws = null;
    this.pinger = null;
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${query}`;
  }

  connect() {
    this.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.onStatus("closed");
      if (this.closed) return;
      const delay = Math.min(8000, 400 * 2 ** this.retry);
      this.retry += 1;
      setTimeout(() => this.connect(), delay);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}

export function escapeHtml(text) {
  return String(text ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}

/** Show a message in the page's toast area (errors stay longer). */
export function toast(message, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = document.createElement("div");
    box.id = "toasts";
    box.setAttribute("role", "alert");
    box.setAttribute("aria-live", "assertive");
    document.body.appendChild(box);
  }
  const item = document.createElement("div");
  item.className = `toast toast-${kind}`;
  item.textContent = message;
  const close = document.createElement("button");
  close.className = "toast-close";
  close.type = "button";
  close.setAttribute("aria-label", "Dismiss");
  close.textContent = "×";
  close.onclick = () => item.remove();
  item.appendChild(close);
  box.appendChild(item);
  while (box.children.length > 3) box.firstChild.remove();
  setTimeout(() => item.remove(), kind === "error" ? 7000 : 3500);
}
