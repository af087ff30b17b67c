// @ts-check
// REST calls, the websocket, and what the browser remembers (tokens, name, preferences).

import { t } from "./i18n.js";

export class ApiError extends Error {
  /** @param {string} message @param {number} status */
  constructor(message, status) {
    super(message);
    this.status = status;
    /** The model's list of problems, when the server sent one (the score sheet's API). */
    /** @type {string[] | undefined} */
    this.problems = undefined;
  }
}

/**
 * Call the REST API; resolves to the JSON answer, rejects with an ApiError holding its message.
 * The answer's type is the caller's to name (the server's schemas).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string | null} [token]
 * @returns {Promise<any>}
 */
export async function api(method, path, body, token) {
  /** @type {Record<string, string>} */
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
    throw new ApiError(t("cannot reach the server ({error})", { error: errorText(err) }), 0);
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
    if (Array.isArray(message)) {
      message = message.map((/** @type {{msg?: string}} */ d) => d.msg || JSON.stringify(d)).join("; ");
    }
    if (message && typeof message !== "string") message = JSON.stringify(message);
    throw new ApiError(message || `${response.status} ${response.statusText}`, response.status);
  }
  return data;
}

/**
 * The message of something thrown.
 * @param {unknown} err
 */
export function errorText(err) {
  return err instanceof Error ? err.message : String(err);
}

const PREFIX = "salad.";

/** @param {string} key */
function get(key) {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

/** @param {string} key @param {string | null | undefined} value */
function set(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    /* private mode: nothing is remembered */
  }
}

export const store = {
  /** @param {string} tableId */
  token: (tableId) => get(`token.${tableId}`),
  /** @param {string} tableId @param {string | null} token */
  setToken: (tableId, token) => set(`token.${tableId}`, token),
  name: () => get("name") || "",
  /** @param {string} name */
  setName: (name) => set("name", name),
  /**
   * A preference, or `fallback` when none is kept.
   * @template T
   * @param {string} key
   * @param {T} fallback
   * @returns {T}
   */
  pref: (key, fallback) => {
    const v = get(`pref.${key}`);
    return v === null ? fallback : JSON.parse(v);
  },
  /** @param {string} key @param {unknown} value */
  setPref: (key, value) => set(`pref.${key}`, JSON.stringify(value)),
};

/** The table id of a page path such as /table/abc or /watch/abc. */
export function tableIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts.length >= 2 ? decodeURIComponent(parts[1]) : null;
}

/** The close code of a connection the server dropped for falling behind (docs/protocol.md). */
export const BEHIND = 4408;

/** The close code of a connection to a table the server does not have. */
export const NO_TABLE = 4404;

/** The close code of a connection to a table the server cannot open (its stored data is damaged). */
export const DAMAGED = 4500;

/**
 * The close code of a websocket sent to the cluster node that holds its table: the reason is
 * `node=NAME`, and the socket reconnects at once naming that node (docs/protocol.md).
 */
export const REDIRECT = 4307;

/** How the `error` a cluster node sends before a REDIRECT close begins (not shown). */
const MOVED_TO = "this table is played on node ";

/** Redirects followed in a row, at once; past them, the usual back-off. */
const MAX_REDIRECTS = 3;

/**
 * Close codes after which connecting again changes nothing (docs/protocol.md): a wrong token
 * (4401), a seat the host gave away or removed (4403), no such table (4404), a table that
 * cannot be opened (4500).
 */
export const FINAL = [4401, 4403, NO_TABLE, DAMAGED];

/**
 * A websocket that reconnects by itself. `onMessage(msg)` gets every parsed message,
 * `onStatus("open"|"closed"|"connecting")` follows the connection, and `onEnd(code, reason)`
 * says it ended for good (a FINAL close: the server's last error is the reason) and will not
 * be tried again.
 */
export class Socket {
  /**
   * @param {string} tableId
   * @param {string | null} token
   * @param {(msg: any) => void} onMessage
   * @param {(status: "open" | "closed" | "connecting") => void} onStatus
   * @param {(code: number, reason: string) => void} onEnd
   * @param {boolean} [watch] a spectator's (the watch page): never the seat the player's cookie names
   */
  constructor(tableId, token, onMessage, onStatus, onEnd, watch = false) {
    this.tableId = tableId;
    this.token = token;
    this.watch = watch;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onEnd = onEnd;
    /** The server's last error on this socket (the reason of a close that follows it). */
    this.lastError = "";
    this.retry = 0;
    this.closed = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pinger = undefined;
    /** Whether the server names the node holding the table (a cluster's); unknown at first. */
    this.named = true;
    /** Redirects to the table's node followed since the last state. */
    this.redirects = 0;
    this.connect();
  }

  // The token goes in the first message (`hello`), never in the URL: servers and proxies
  // write URLs to their logs. `node`: the node holding the table, for the balancer.
  /** @param {string | null} node */
  url(node) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const params = new URLSearchParams();
    if (node) params.set("node", node);
    if (this.watch) params.set("watch", "1");
    const query = params.toString() ? `?${params}` : "";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${query}`;
  }

  /**
   * The node of a cluster holding the table, as its answers name it (the `salad-node` header):
   * the websocket names it, and the balancer sends it straight there (docs/deploy.md). Asked
   * before each connection, as the table may have moved; a server that names none (one
   * node) is not asked again.
   * @returns {Promise<string | null>}
   */
  async holder() {
    if (!this.named) return null;
    try {
      const answer = await fetch(`/api/tables/${encodeURIComponent(this.tableId)}`);
      const node = answer.headers.get("salad-node");
      if (answer.ok && !node) this.named = false;
      return node;
    } catch {
      return null; // the websocket says what is wrong
    }
  }

  connect() {
    this.onStatus("connecting");
    this.holder().then((node) => {
      if (!this.closed) this.open(node);
    });
  }

  /** @param {string | null} node */
  open(node) {
    const ws = new WebSocket(this.url(node));
    this.ws = ws;
    // Until the server answers the hello, it sends this connection the spectator's state.
    let seated = !this.token;
    ws.onopen = () => {
      if (this.token) ws.send(JSON.stringify({ type: "hello", token: this.token }));
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
      // A state, not an open, resets the backoff: a server that accepts and then refuses
      // (too many connections, a wrong token) is not tried again at once, again and again.
      if (msg && msg.type === "state") this.retry = this.redirects = 0;
      // A cluster node that does not hold the table says where it is, then closes (REDIRECT).
      if (msg && msg.type === "error" && String(msg.message).startsWith(MOVED_TO)) return;
      if (msg && msg.type === "error") this.lastError = String(msg.message || "");
      if (!seated && msg && msg.type === "state") {
        if (msg.you === -1) return;
        seated = true;
      }
      this.onMessage(msg);
    };
    ws.onclose = (event) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.onStatus("closed");
      if (this.closed) return;
      // REDIRECT: the table is on another node of the cluster; go there at once.
      const node = event.code === REDIRECT ? event.reason.replace(/^node=/, "") : "";
      if (node && node !== event.reason && this.redirects < MAX_REDIRECTS) {
        this.redirects += 1;
        this.onStatus("connecting");
        this.open(node);
        return;
      }
      if (FINAL.includes(event.code)) {
        this.closed = true;
        this.onEnd(event.code, this.lastError || event.reason || t("the server closed the connection"));
        return;
      }
      // BEHIND: the server dropped a connection that fell behind; a new one gets the latest
      // state at once.
      if (event.code === BEHIND) this.retry = 0;
      const delay = Math.min(8000, 400 * 2 ** this.retry);
      this.retry += 1;
      setTimeout(() => this.connect(), delay);
    };
  }

  /** Send a message if connected; false if it was not sent. @param {object} msg */
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
