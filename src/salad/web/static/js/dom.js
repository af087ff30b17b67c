// @ts-check
// The DOM helpers every page uses: find an element by id, build markup that escapes what it is
// given (the `html` tagged template), put markup in place, and show a toast.

/**
 * `message` in the page's language, as i18n.js's `t` (`make i18n` finds it the same way):
 * looked up here in the page's catalog, so that this module needs no page (Node runs it in
 * tests/test_web_markup.py) and i18n.js needs one.
 * @param {string} message
 */
function t(message) {
  const found = /** @type {any} */ (globalThis).SALAD_CATALOG?.messages?.[message];
  return typeof found === "string" && found ? found : message;
}

/**
 * Markup that is safe to put in the page: built by `html` (its values escaped) or marked
 * trusted with `trusted` (markup written in this code, such as an SVG drawing).
 */
export class Html {
  /** @param {string} text */
  constructor(text) {
    /** @readonly */
    this.text = text;
  }

  toString() {
    return this.text;
  }
}

/**
 * What may go into an `html` template: text and numbers are escaped, `Html` goes in as it is,
 * a list goes in item by item, and null, undefined and false leave nothing.
 * @typedef {string | number | boolean | null | undefined | Html | MarkupList} Markup
 */
/** @typedef {readonly Markup[]} MarkupList */

const ESCAPES = /** @type {Record<string, string>} */ ({
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
});

/** @param {string} text */
function escapeText(text) {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** @param {Markup} value @returns {string} */
function piece(value) {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeText(String(value));
}

/**
 * A tagged template for markup: every interpolated value is escaped (text, attribute values
 * alike) unless it is `Html` already, so that a name such as `<b>` shows as typed.
 * @param {TemplateStringsArray} strings
 * @param {...Markup} values
 * @returns {Html}
 */
export function html(strings, ...values) {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + strings[i + 1];
  return new Html(out);
}

/**
 * Markup written by this code and trusted as it is (never text that came from a user or the
 * server).
 * @param {string} markup
 */
export function trusted(markup) {
  return new Html(markup);
}

/**
 * Items joined into one piece of markup.
 * @param {ReadonlyArray<Markup>} items
 * @param {string} [separator] plain text between the items (escaped)
 */
export function join(items, separator = "") {
  return new Html(items.map(piece).join(escapeText(separator)));
}

/**
 * Replace the content of `el` by `markup`.
 * @param {Element} el
 * @param {Html} markup
 */
export function setHTML(el, markup) {
  el.innerHTML = markup.text;
  given.delete(el);
}

/** The markup each element was last given by updateHTML. @type {WeakMap<Element, string>} */
const given = new WeakMap();

/**
 * Replace the content of `el` by `markup` unless updateHTML gave it the same markup last time
 * (and nothing else wrote it since, through setHTML). A re-render that changes nothing then
 * leaves the elements alone: a click pressed on one as a message arrives is not lost with it.
 * @param {Element} el
 * @param {Html} markup
 * @returns {boolean} whether the content was replaced
 */
export function updateHTML(el, markup) {
  if (given.get(el) === markup.text) return false;
  el.innerHTML = markup.text;
  given.set(el, markup.text);
  return true;
}

/**
 * The element with this id; an Error names a missing one (the page and its script disagree).
 * @overload
 * @param {string} id
 * @returns {HTMLElement}
 */
/**
 * The element with this id, of this type; an Error names a missing one or one of another type.
 * @template {Element} T
 * @overload
 * @param {string} id
 * @param {new (...args: any[]) => T} type
 * @returns {T}
 */
/**
 * @param {string} id
 * @param {new (...args: any[]) => Element} [type]
 * @returns {Element}
 */
export function $(id, type = HTMLElement) {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return el;
}

/**
 * The element with this id if the page shows it now, else null.
 * @overload
 * @param {string} id
 * @returns {HTMLElement | null}
 */
/**
 * The element with this id if the page shows it now and it has this type, else null.
 * @template {Element} T
 * @overload
 * @param {string} id
 * @param {new (...args: any[]) => T} type
 * @returns {T | null}
 */
/**
 * @param {string} id
 * @param {new (...args: any[]) => Element} [type]
 * @returns {Element | null}
 */
export function maybe(id, type = HTMLElement) {
  const el = document.getElementById(id);
  return el instanceof type ? el : null;
}

/**
 * The elements under `root` that match `selector` and are HTML elements.
 * @overload
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {HTMLElement[]}
 */
/**
 * The elements under `root` that match `selector` and have this type.
 * @template {Element} T
 * @overload
 * @param {ParentNode} root
 * @param {string} selector
 * @param {new (...args: any[]) => T} type
 * @returns {T[]}
 */
/**
 * @param {ParentNode} root
 * @param {string} selector
 * @param {new (...args: any[]) => Element} [type]
 * @returns {Element[]}
 */
export function all(root, selector, type = HTMLElement) {
  return [...root.querySelectorAll(selector)].filter((el) => el instanceof type);
}

/**
 * The first element under `root` that matches `selector` if it is an HTML element, else null.
 * @overload
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {HTMLElement | null}
 */
/**
 * The first element under `root` that matches `selector` if it has this type, else null.
 * @template {Element} T
 * @overload
 * @param {ParentNode} root
 * @param {string} selector
 * @param {new (...args: any[]) => T} type
 * @returns {T | null}
 */
/**
 * @param {ParentNode} root
 * @param {string} selector
 * @param {new (...args: any[]) => Element} [type]
 * @returns {Element | null}
 */
export function first(root, selector, type = HTMLElement) {
  const el = root.querySelector(selector);
  return el instanceof type ? el : null;
}

/**
 * Show a message in the page's toast area (errors stay longer).
 * @param {string} message
 * @param {"error" | "info"} [kind]
 */
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
  close.setAttribute("aria-label", t("Dismiss"));
  close.textContent = "×";
  close.onclick = () => item.remove();
  item.appendChild(close);
  box.appendChild(item);
  while (box.children.length > 3) box.children[0].remove();
  setTimeout(() => item.remove(), kind === "error" ? 7000 : 3500);
}
