// @ts-check
// The player this browser is (GET /api/me: made on the first visit, kept in a signed cookie
// the page never reads), asked once a page; and the names typed in the page's forms, which
// become the player's name if they had none.

import { api } from "./api.js";

/**
 * @typedef {{id: string, name: string | null, colour: string, language: string}} Me
 */

/** @type {Promise<Me | null> | null} */
let asked = null;

/** @type {() => void} */
let signInDone = () => {};
/** On a sign-in link (/signin/CODE), the page's sign-in comes first: asked before it ends, the
 * server would make this browser a new player whose cookie could land after the sign-in's. */
const signingIn = location.pathname.startsWith("/signin/")
  ? new Promise((done) => (signInDone = () => done(undefined)))
  : Promise.resolve();

/** The player (null: the server could not be asked), asked once a page. @returns {Promise<Me | null>} */
export function me() {
  if (!asked) asked = signingIn.then(() => api("GET", "/api/me")).catch(() => null);
  return asked;
}

/** The player changed (signed in as another, renamed): `me()` answers this from now on. @param {Me | null} now */
export function meChanged(now) {
  asked = Promise.resolve(now);
  signInDone();
}

/** The page's sign-in is over, whether it signed in or not: `me()` may ask the server. */
export function signInOver() {
  signInDone();
}

/**
 * A name typed in a form: the player's name if they had none (a name another player has
 * stays a table's display name only).
 * @param {string} name
 */
export async function offerName(name) {
  const mine = await me();
  if (!mine || mine.name || !name) return;
  try {
    meChanged(await api("PATCH", "/api/me", { name }));
  } catch {
    /* taken, or too long for a player's name: the table's name only */
  }
}
