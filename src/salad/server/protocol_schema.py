"""The websocket protocol's generated files, from the models of :mod:`salad.server.messages`:

* ``docs/protocol.schema.json``: their JSON Schema (pydantic's), every message in ``$defs``
  beside ``ServerMessage`` and ``ClientMessage``; a field a ``state`` may leave out carries
  ``"kept": true``.
* ``src/salad/web/static/js/messages.d.ts``: the same as TypeScript declarations for the
  ``// @ts-check`` client (``import("./messages.js").View``), a model's name without its
  ``Out`` (``View``, ``State``). The type checker reads them; the browser never loads them.
* ``src/salad/web/static/js/messages.js``: what the client runs of it, the kept keys (``KEPT``,
  ``VIEW_KEPT``) that its ``complete`` fills in.

Only the small part of JSON Schema the models use is translated; anything else is a ValueError
here. Run from the repository's root: ``python -m salad.server.protocol_schema [--check]``
(writes the files; ``--check``: exits 1 naming a stale one).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from salad.server.incoming import AnyClientMessage
from salad.server.messages import KEPT_FIELD, ServerMessage
from salad.server.protocol import KEPT, VIEW_KEPT

SCHEMA_PATH = Path("docs/protocol.schema.json")
JS_PATH = Path("src/salad/web/static/js/messages.js")
TYPES_PATH = JS_PATH.with_suffix(".d.ts")
_REF = "#/$defs/"


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of every websocket message: what the server writes (serialization) and
    what it reads from a client (validation)."""
    server = TypeAdapter(ServerMessage).json_schema(mode="serialization")
    client = TypeAdapter(AnyClientMessage).json_schema(mode="validation")
    defs = {**server.pop("$defs"), **client.pop("$defs")}
    defs["ServerMessage"] = {"description": "Every message the server sends.", **server}
    defs["ClientMessage"] = {
        "description": "Every message a client sends (hello as the first only).",
        **client,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "salad's websocket protocol (/ws/tables/{id})",
        "description": "Generated from salad.server.messages by python -m "
        "salad.server.protocol_schema: do not edit. docs/protocol.md says how they are used.",
        "$defs": dict(sorted(defs.items())),
    }


def js_name(name: str) -> str:
    return name.removesuffix("Out")


def js_type(node: dict[str, Any]) -> str:
    """The TypeScript type (as JSDoc takes it) of a JSON Schema node."""
    if "$ref" in node:
        return js_name(node["$ref"].removeprefix(_REF))
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return " | ".join(json.dumps(v) for v in node["enum"])
    for union in ("anyOf", "oneOf"):
        if union in node:
            return " | ".join(js_type(n) for n in node[union])
    kind = node.get("type")
    if kind in ("integer", "number"):
        return "number"
    if kind in ("string", "boolean", "null"):
        return str(kind)
    if kind == "array":
        if "prefixItems" in node:
            return "[" + ", ".join(js_type(n) for n in node["prefixItems"]) + "]"
        item = js_type(node["items"])
        return f"({item})[]" if " | " in item else f"{item}[]"
    if kind == "object" and "properties" not in node and "additionalProperties" in node:
        return f"Record<string, {js_type(node['additionalProperties'])}>"
    raise ValueError(f"protocol schema: no JavaScript type for {json.dumps(node)[:80]}")


def _comment(text: str, indent: str = "") -> list[str]:
    lines = [line.strip().replace("``", "`") for line in text.strip().splitlines()]
    if len(lines) == 1:
        return [f"{indent}/** {lines[0]} */"]
    return [f"{indent}/**", *(f"{indent} * {line}" for line in lines), f"{indent} */"]


def ts_declaration(name: str, node: dict[str, Any]) -> list[str]:
    """A model's TypeScript declaration: its description, then its type."""
    lines = _comment(node.get("description", name))
    if "properties" not in node:
        return [*lines, f"export type {js_name(name)} = {js_type(node)};"]
    lines.append(f"export type {js_name(name)} = {{")
    required = set(node.get("required", ()))
    for key, prop in node["properties"].items():
        words = prop.get("description", "").replace("\n", " ")
        kept = "(kept: left out when the connection has it)" if prop.get(KEPT_FIELD) else ""
        if said := " ".join(w for w in (words, kept) if w):
            lines += _comment(said, "  ")
        shown = key if key.isidentifier() else json.dumps(key)
        lines.append(f"  {shown}{'' if key in required else '?'}: {js_type(prop)};")
    return [*lines, "};"]


HEADER = [
    "// Generated from salad.server.messages by `python -m salad.server.protocol_schema`:",
    "// do not edit. The websocket's messages (docs/protocol.md, docs/protocol.schema.json).",
]


def declarations(schema: dict[str, Any]) -> str:
    kept, view_kept = list(KEPT), list(VIEW_KEPT)
    left_out = " | ".join(json.dumps(k) for k in [*kept, "view"])
    whole = " | ".join(json.dumps(k) for k in kept)
    whole_view = " | ".join(json.dumps(k) for k in view_kept)
    lines = [*HEADER, ""]
    for name, node in schema["$defs"].items():
        lines += [*ts_declaration(name, node), ""]
    lines += [
        "/** A `state`'s view once completed: every kept key is there. */",
        f"export type CompleteView = View & Required<Pick<View, {whole_view}>>;",
        "",
        "/** A `state` once completed (table/protocol.js, `complete`): every kept key is there. */",
        f"export type CompleteState = Omit<State, {left_out}> & Required<Pick<State, {whole}>> & "
        "{ view: CompleteView | null };",
        "",
        "/** The keys a `state` leaves out when its connection already has them. */",
        f"export declare const KEPT: readonly {json.dumps(kept)};",
        "/** The keys of a `state`'s view it leaves out likewise. */",
        f"export declare const VIEW_KEPT: readonly {json.dumps(view_kept)};",
    ]
    return "\n".join(lines) + "\n"


def javascript() -> str:
    """What the client runs of the protocol (its types are in messages.d.ts)."""
    lines = [
        "// @ts-check",
        *HEADER,
        "// Its types are messages.d.ts, which only the type checker reads.",
        "",
        "/** The keys a `state` leaves out when its connection already has them. */",
        f"export const KEPT = /** @type {{const}} */ ({json.dumps(list(KEPT))});",
        "/** The keys of a `state`'s view it leaves out likewise. */",
        f"export const VIEW_KEPT = /** @type {{const}} */ ({json.dumps(list(VIEW_KEPT))});",
    ]
    return "\n".join(lines) + "\n"


def generated() -> dict[Path, str]:
    """Each generated file's path (from the repository's root) and text."""
    schema = protocol_schema()
    return {
        SCHEMA_PATH: json.dumps(schema, indent=2, ensure_ascii=False) + "\n",
        TYPES_PATH: declarations(schema),
        JS_PATH: javascript(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m salad.server.protocol_schema", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is stale")
    parser.add_argument("--root", type=Path, default=Path(), help="the repository's root")
    args = parser.parse_args(argv)
    if not (args.root / "docs").is_dir():
        print(f"error: {args.root.resolve()} is not the repository's root", file=sys.stderr)
        return 2
    stale, files = [], generated()
    for path, text in files.items():
        target = args.root / path
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            stale.append(str(path))
            if not args.check:
                target.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(f"stale: {', '.join(stale)}; run python -m salad.server.protocol_schema")
        return 1
    print(("wrote " if stale else "up to date: ") + ", ".join(str(p) for p in files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
