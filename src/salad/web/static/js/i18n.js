// @ts-check
// The page's words in its language (docs/i18n.md): t("Your turn, {name}", {name}), tn(one, other,
// n); the first arguments plain string literals (make i18n reads them). The server's catalog of
// the page (salad.locale) comes before the modules as SALAD_CATALOG; none in English.

/** @type {{lang: string, messages: Record<string, string | Record<string, string>>}} */
const catalog = /** @type {any} */ (globalThis).SALAD_CATALOG ?? {
  lang: document.documentElement.lang || "en",
  messages: {},
};

/** The page's language, a BCP 47 tag (`fr-CA`). */
export const lang = catalog.lang;

/** The site's code of it (`fr`): what the switch and /api/me store. */
export const code = document.documentElement.dataset.language ?? lang.split("-")[0];

const plurals = new Intl.PluralRules(lang);

/** @param {string} text @param {Record<string, unknown>} [params] */
function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** `message` in the page's language, `{name}`s filled. @param {string} message @param {Record<string, unknown>} [params] @returns {string} */
export function t(message, params) {
  const found = catalog.messages[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

/**
 * The form for `n` (CLDR's rules), `{n}` written in the page's language.
 * @param {string} one @param {string} other @param {number} n @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function tn(one, other, n, params) {
  const found = catalog.messages[one];
  const category = plurals.select(n);
  let text;
  if (found && typeof found === "object") text = found[category] ?? found.other ?? other;
  else text = category === "one" ? one : other;
  return fill(text, { n: number(n), ...params });
}

/** @param {number} n @param {Intl.NumberFormatOptions} [options] */
export function number(n, options) {
  return new Intl.NumberFormat(lang, options).format(n);
}

/** @param {Date | number} when @param {Intl.DateTimeFormatOptions} [options] */
export function date(when, options = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(lang, options).format(when);
}

/**
 * Show the site in `chosen`: kept in the cookie the server reads (salad_lang) and, where the
 * player has an identity, by it; then the page is written again.
 * @param {string} chosen
 */
export async function chooseLanguage(chosen) {
  document.cookie = `salad_lang=${encodeURIComponent(chosen)}; path=/; max-age=31536000; samesite=lax`;
  try {
    await fetch("/api/me", {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ language: chosen }),
    });
  } catch {
    // The cookie alone still chooses this browser's pages.
  }
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  location.replace(url.toString());
}

// The page's switches (select[data-language-switch], written by the server).
function wireSwitches() {
  for (const select of document.querySelectorAll("select[data-language-switch]")) {
    if (select instanceof HTMLSelectElement) select.addEventListener("change", () => void chooseLanguage(select.value));
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wireSwitches);
else wireSwitches();
