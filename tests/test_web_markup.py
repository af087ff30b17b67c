"""The browser client's ``html`` template (web/static/js/dom.js), run in Node.js: every value is
escaped unless it is markup the code built itself."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

DOM = Path(__file__).parents[1] / "src" / "salad" / "web" / "static" / "js" / "dom.js"

SCRIPT = """
import { html, join, trusted } from %s;
const name = `<img src=x onerror="alert(1)">&'`;
const out = {
  text: html`<b>${name}</b>`.text,
  attribute: html`<span title="${name}">x</span>`.text,
  nested: html`<p>${html`<i>${name}</i>`}</p>`.text,
  trusted: html`<p>${trusted("<svg></svg>")}</p>`.text,
  list: html`<ul>${[1, "<2>"].map((x) => html`<li>${x}</li>`)}</ul>`.text,
  empty: html`<p>${null}${undefined}${false}${0}</p>`.text,
  joined: join([name, html`<br>`], " & ").text,
};
console.log(JSON.stringify(out));
"""


def run_node() -> dict[str, str]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed for the web client's checks (make lint installs it)")
    done = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT % json.dumps(DOM.as_uri())],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, str] = json.loads(done.stdout)
    return result


def test_values_are_escaped_and_built_markup_is_kept() -> None:
    out = run_node()
    escaped = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;"
    assert out["text"] == f"<b>{escaped}</b>"
    assert out["attribute"] == f'<span title="{escaped}">x</span>'
    assert out["nested"] == f"<p><i>{escaped}</i></p>"
    assert out["trusted"] == "<p><svg></svg></p>"
    assert out["list"] == "<ul><li>1</li><li>&lt;2&gt;</li></ul>"
    assert out["empty"] == "<p>0</p>"
    assert out["joined"] == f"{escaped} &amp; <br>"
