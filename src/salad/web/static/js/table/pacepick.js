// @ts-check
// The table's pace in its settings, at any time of a game: the host changes it (the bots' speed
// and the pause after a trick; the next state says it to everyone), the others read it. Loaded
// when the settings open, so the table's first load does not carry it.

import { html, maybe, setHTML } from "../dom.js";
import { keepPace, paceOptions } from "./motion.js";
import { isHost, rest, S, table } from "./state.js";

const WORDS = "bots' speed and pause after a trick";

export function pacePick() {
  const links = maybe("settings-links");
  if (!links || !S.table) return;
  let el = maybe("settings-pace");
  if (!el) {
    el = document.createElement("p");
    el.id = "settings-pace";
    el.className = "hint";
    links.before(el);
  }
  const pace = table().pace || "normal";
  if (!isHost()) {
    setHTML(el, html`Pace: ${pace} (${WORDS})`);
    return;
  }
  setHTML(el, html`<label>Pace <select id="settings-pace-select">${paceOptions(pace)}</select></label> ${WORDS}`);
  const pick = maybe("settings-pace-select", HTMLSelectElement);
  if (!pick) return;
  pick.onchange = () => {
    keepPace(pick.value); // the host's next table starts at it
    void rest("PUT", `/api/tables/${encodeURIComponent(S.tableId)}/pace`, { pace: pick.value });
  };
}
