// @ts-check
// The quick reactions' pictures, drawn as SVG: a computer without an emoji font would show
// empty boxes. Loaded by chat.js only once a reaction is to be drawn (the panel opens, or one
// is said), so the table's first load does not carry them. Each picture's emoji is its <desc>:
// the text of the reaction, drawn by no font.

const FACE = '<circle cx="10" cy="10" r="9" fill="#fcc419"/>';
const INK = 'fill="#5c3d00"';
const EYES = `<circle cx="7" cy="8" r="1.3" ${INK}/><circle cx="13" cy="8" r="1.3" ${INK}/>`;
const HAND = 'fill="#fcc419" stroke="#a86b00" stroke-width=".8" stroke-linejoin="round"';

/** Each reaction's emoji and its drawing (a 20 x 20 view box). */
const PICS = {
  nice: ["👍", `<rect x="2.5" y="9" width="3.5" height="8" rx="1" fill="#4c6ef5"/><path d="M7 9l3-6c1.2 0 2 .8 1.8 2L11.3 8H16a1.5 1.5 0 0 1 1.4 2l-1.8 6a1.5 1.5 0 0 1-1.4 1H7z" ${HAND}/>`],
  haha: ["😄", `${FACE}<path d="M5.5 8.5q1.5-2 3 0M11.5 8.5q1.5-2 3 0" stroke="#5c3d00" stroke-width="1.4" fill="none" stroke-linecap="round"/><path d="M5 11h10a5 5 0 0 1-10 0z" ${INK}/>`],
  wow: ["😮", `${FACE}${EYES}<ellipse cx="10" cy="13.5" rx="2.2" ry="2.8" ${INK}/>`],
  ouch: ["😬", `${FACE}${EYES}<rect x="5" y="11" width="10" height="4" rx="1.5" fill="#fff" stroke="#5c3d00" stroke-width=".9"/><path d="M5 13h10M8.3 11v4M11.7 11v4" stroke="#5c3d00" stroke-width=".8"/>`],
  gg: ["👏", `<g transform="rotate(-18 7 11)"><rect x="4" y="5" width="6" height="12" rx="3" ${HAND}/><path d="M5.6 5.5v4M7 5v4.5M8.4 5.5v4" stroke="#a86b00" stroke-width=".6"/></g><g transform="rotate(18 13 11)"><rect x="10" y="5" width="6" height="12" rx="3" ${HAND}/><path d="M11.6 5.5v4M13 5v4.5M14.4 5.5v4" stroke="#a86b00" stroke-width=".6"/></g><path d="M2 3.5l1.6 1.6M10 .8v2.2M18 3.5l-1.6 1.6" stroke="#e8590c" stroke-width="1.2" stroke-linecap="round"/>`],
  oops: ["🙈", `<circle cx="2.8" cy="10" r="2.4" fill="#8d5524"/><circle cx="17.2" cy="10" r="2.4" fill="#8d5524"/><circle cx="10" cy="10" r="8.4" fill="#8d5524"/><ellipse cx="10" cy="12.3" rx="5.8" ry="5" fill="#f2c79b"/><path d="M8 14.6q2 1.3 4 0" stroke="#5c3d00" stroke-width=".9" fill="none"/><rect x="3.2" y="6" width="6.2" height="5" rx="2.5" fill="#d9a066" stroke="#6b3e14" stroke-width=".7"/><rect x="10.6" y="6" width="6.2" height="5" rx="2.5" fill="#d9a066" stroke="#6b3e14" stroke-width=".7"/>`],
};

/** The picture of reaction `name` as SVG markup (trusted: made here), or "" for one not known.
 * @param {string} name */
export function emotePicture(name) {
  const pic = PICS[/** @type {keyof typeof PICS} */ (name)];
  if (!pic) return "";
  return `<svg class="emote-pic" viewBox="0 0 20 20" width="20" height="20" style="width:1.25em;height:1.25em;vertical-align:-.25em" aria-hidden="true"><desc>${pic[0]}</desc>${pic[1]}</svg>`;
}
