"""Layouts as JSON ("version 2"), and the restricted JSON they are written in.

tmux's layout string (``csum,WxH,X,Y{…}``) names no panes: cells are handed to panes in pane
order, so a string saved from one window and applied to another moves panes around, and it has
no room for which pane was active or how floating panes are stacked.  The JSON form, which the
system hmux grew from calls version 2, says all of that:

.. code-block:: json

    {"active":1,"floating":[{"height":6,"pane":2,"type":"pane","width":40,"x":4,"y":2}],
     "height":24,"last":0,"root":{"cells":[…],"height":24,"type":"topbottom","width":80,
     "x":0,"y":0},"version":2,"width":80}

``root`` is the tiled tree: cells of ``type`` ``leftright``, ``topbottom`` (with ``cells``) or
``pane`` (with ``pane``, the pane's index as ``#{pane_index}`` shows it, and ``id``, its
``%`` number, which is informative only).  ``floating`` lists the floating panes topmost
first; ``active`` and ``last`` are pane indexes (``last`` is absent when there is none).
Applying one (``select-layout``) puts each pane where its index says, floating or tiled, and
makes the active and last panes so.

The JSON itself is the restricted subset the seed describes, so that every reader agrees on
what a document means: objects at the root, arrays only of objects, signed 64-bit integers,
``true``/``false`` and non-empty strings; ``null``, fractions and exponents are refused, as
are duplicate keys; escapes are checked and kept as written; objects nest at most
:data:`MAX_DEPTH` deep.  :func:`dumps` writes keys sorted with no spaces, so equal documents
are equal strings.  ``display-message -j`` prints a document this way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .layout import (
    LAYOUT_CELL_FLOATING,
    LEFTRIGHT,
    TOPBOTTOM,
    WINDOW_MAXIMUM,
    WINDOWPANE,
    Layout,
    LayoutCell,
    LayoutError,
)

__all__ = ["MAX_DEPTH", "JsonError", "JStr", "dumps", "loads", "encode", "decode",
           "is_json"]

#: How deeply objects may nest (the seed's limit for JSON layouts).
MAX_DEPTH = 200
_INT64 = (-(1 << 63), (1 << 63) - 1)


class JsonError(ValueError):
    """A document outside the restricted subset; ``str()`` says why and where."""


class JStr(str):
    """A string value, remembering its escapes as written (``raw``) so they print back the
    same."""

    raw: str

    def __new__(cls, value: str, raw: str | None = None) -> JStr:
        obj = super().__new__(cls, value)
        obj.raw = raw if raw is not None else _escape(value)
        return obj


_WS = " \t\n\r"
_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)")
_ESC = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _escape(value: str) -> str:
    out = []
    for ch in value:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch < " ":
            out.append({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
                        "\t": "\\t"}.get(ch, f"\\u{ord(ch):04x}"))
        else:
            out.append(ch)
    return "".join(out)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, why: str) -> JsonError:
        return JsonError(f"{why} at offset {self.pos}")

    def skip(self) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n and text[self.pos] in _WS:
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, ch: str) -> None:
        if self.peek() != ch:
            raise self.fail(f"expected {ch!r}")
        self.pos += 1

    def document(self) -> dict[str, Any]:
        if self.peek() != "{":
            raise self.fail("a document is an object")
        value = self.obj(1)
        if self.peek() != "":
            raise self.fail("trailing text")
        return value

    def obj(self, depth: int) -> dict[str, Any]:
        if depth > MAX_DEPTH:
            raise self.fail(f"objects nested more than {MAX_DEPTH} deep")
        self.expect("{")
        out: dict[str, Any] = {}
        if self.peek() == "}":
            self.pos += 1
            return out
        while True:
            if self.peek() != '"':
                raise self.fail("expected a key")
            key = self.string()
            if key in out:
                raise self.fail(f"duplicate key {key.raw!r}")
            self.expect(":")
            out[key] = self.value(depth)
            ch = self.peek()
            self.pos += 1
            if ch == "}":
                return out
            if ch != ",":
                self.pos -= 1
                raise self.fail("expected ',' or '}'")

    def array(self, depth: int) -> list[dict[str, Any]]:
        self.expect("[")
        out: list[dict[str, Any]] = []
        if self.peek() == "]":
            self.pos += 1
            return out
        while True:
            if self.peek() != "{":
                raise self.fail("arrays hold only objects")
            out.append(self.obj(depth + 1))
            ch = self.peek()
            self.pos += 1
            if ch == "]":
                return out
            if ch != ",":
                self.pos -= 1
                raise self.fail("expected ',' or ']'")

    def value(self, depth: int) -> Any:
        ch = self.peek()
        if ch == "{":
            return self.obj(depth + 1)
        if ch == "[":
            return self.array(depth)
        if ch == '"':
            s = self.string()
            if not s:
                raise self.fail("empty string")
            return s
        text = self.text
        for word, v in (("true", True), ("false", False)):
            if text.startswith(word, self.pos):
                self.pos += len(word)
                return v
        if text.startswith("null", self.pos):
            raise self.fail("null is not allowed")
        m = _NUMBER.match(text, self.pos)
        if m is None:
            raise self.fail("expected a value")
        end = m.end()
        if end < len(text) and text[end] in ".eE":
            raise self.fail("only integers are allowed")
        v = int(m.group(0))
        if not _INT64[0] <= v <= _INT64[1]:
            raise self.fail("integer out of range")
        self.pos = end
        return v

    def string(self) -> JStr:
        text, n = self.text, len(self.text)
        start = self.pos + 1
        i = start
        out: list[str] = []
        while True:
            if i >= n:
                self.pos = i
                raise self.fail("unterminated string")
            ch = text[i]
            if ch == '"':
                break
            if ch < " ":
                self.pos = i
                raise self.fail("control character in string")
            if ch != "\\":
                out.append(ch)
                i += 1
                continue
            esc = text[i + 1] if i + 1 < n else ""
            if esc in _ESC:
                out.append(_ESC[esc])
                i += 2
                continue
            if esc != "u" or not re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 2:i + 6]):
                self.pos = i
                raise self.fail("bad escape")
            code = int(text[i + 2:i + 6], 16)
            i += 6
            if 0xD800 <= code < 0xDC00:
                if not (text.startswith("\\u", i)
                        and re.fullmatch(r"[dD][c-fC-F][0-9a-fA-F]{2}", text[i + 2:i + 6])):
                    self.pos = i
                    raise self.fail("unpaired surrogate")
                low = int(text[i + 2:i + 6], 16)
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                i += 6
            elif 0xDC00 <= code < 0xE000:
                self.pos = i
                raise self.fail("unpaired surrogate")
            out.append(chr(code))
        self.pos = i + 1
        return JStr("".join(out), text[start:i])


def loads(text: str) -> dict[str, Any]:
    """Parse a restricted JSON document (an object); JsonError if it is not one."""
    return _Parser(text).document()


def dumps(value: Any) -> str:
    """The canonical text of a document: keys sorted, no spaces, strings as written."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        raw = value.raw if isinstance(value, JStr) else _escape(value)
        return f'"{raw}"'
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: str(kv[0]))
        return "{" + ",".join(f"{dumps(JStr(k) if not isinstance(k, JStr) else k)}:"
                              f"{dumps(v)}" for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dumps(v) for v in value) + "]"
    raise TypeError(f"not a JSON value: {value!r}")


def is_json(text: str) -> bool:
    """Does select-layout's argument look like a JSON layout (rather than tmux's string)?"""
    return text.lstrip(_WS).startswith("{")


# -- layouts ----------------------------------------------------------------------------------

_TYPES = {LEFTRIGHT: "leftright", TOPBOTTOM: "topbottom", WINDOWPANE: "pane"}


def _cell(lc: LayoutCell, index_of: Callable[[Any], int]) -> dict[str, Any]:
    out: dict[str, Any] = {"type": _TYPES[lc.type], "width": lc.sx, "height": lc.sy,
                           "x": lc.xoff, "y": lc.yoff}
    if lc.type == WINDOWPANE:
        if lc.pane is not None:
            out["pane"] = index_of(lc.pane)
            out["id"] = lc.pane.id
    else:
        out["cells"] = [_cell(c, index_of) for c in lc.children
                        if not c.flags & LAYOUT_CELL_FLOATING]
    return out


def encode(lay: Layout, index_of: Callable[[Any], int], active: Any = None, last: Any = None,
           visible: bool = False) -> str:
    """A window's layout as version 2 JSON: the full one (``#{window_layout}``), or with
    visible what is shown (while zoomed, the zoomed pane alone).  index_of gives a pane's
    index (``pane_index``)."""
    root = lay.root if visible else lay.full_root
    if root is None:
        return ""
    floating = [] if lay.zoomed else lay.floating_panes()
    fmap = {id(lc.pane): lc for lc in (root.children if root.type != WINDOWPANE else [root])
            if lc.flags & LAYOUT_CELL_FLOATING and lc.pane is not None}
    tiled_root = root
    if root.type != WINDOWPANE:
        tiled = [c for c in root.children if not c.flags & LAYOUT_CELL_FLOATING]
        if len(tiled) == 1 and len(tiled) != len(root.children):
            tiled_root = tiled[0]  # the container new-pane made around a lone tiled cell
    doc: dict[str, Any] = {"version": 2, "width": lay.sx, "height": lay.sy}
    if not tiled_root.flags & LAYOUT_CELL_FLOATING and (
            tiled_root.type == WINDOWPANE
            or any(not c.flags & LAYOUT_CELL_FLOATING for c in tiled_root.children)):
        doc["root"] = _cell(tiled_root, index_of)
    doc["floating"] = [_cell(fmap[id(p)], index_of) for p in floating if id(p) in fmap]
    if active is not None:
        doc["active"] = index_of(active)
    if last is not None:
        doc["last"] = index_of(last)
    return dumps(doc)


def _int(obj: dict[str, Any], key: str, lo: int, hi: int, what: str) -> int:
    v = obj.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise JsonError(f"{what}: {key} must be an integer")
    if not lo <= v <= hi:
        raise JsonError(f"{what}: {key} out of range")
    return v


def _build(obj: dict[str, Any], panes: dict[int, Any], used: set[int],
           leaves: list[Any]) -> LayoutCell:
    """The tiled tree from its JSON, walking with a stack (nesting is bounded by the parser
    anyway)."""
    root: LayoutCell | None = None
    stack: list[tuple[dict[str, Any], LayoutCell | None]] = [(obj, None)]
    while stack:
        o, parent = stack.pop()
        kind = o.get("type")
        lc = LayoutCell(parent)
        lc.set_size(_int(o, "width", 0, WINDOW_MAXIMUM, "cell"),
                    _int(o, "height", 0, WINDOW_MAXIMUM, "cell"),
                    _int(o, "x", 0, WINDOW_MAXIMUM, "cell"),
                    _int(o, "y", 0, WINDOW_MAXIMUM, "cell"))
        if parent is None:
            root = lc
        else:
            parent.children.append(lc)
        if kind == "pane":
            idx = _int(o, "pane", -(1 << 31), (1 << 31) - 1, "cell")
            if idx not in panes:
                raise JsonError(f"no pane {idx}")
            if idx in used:
                raise JsonError(f"pane {idx} appears twice")
            used.add(idx)
            lc.make_leaf(panes[idx])
            leaves.append(panes[idx])
            continue
        if kind not in ("leftright", "topbottom"):
            raise JsonError("cell: type must be pane, leftright or topbottom")
        lc.type = LEFTRIGHT if kind == "leftright" else TOPBOTTOM
        cells = o.get("cells")
        if not isinstance(cells, list) or not cells:
            raise JsonError("cell: a container needs cells")
        for child in reversed(cells):
            stack.append((child, lc))
    assert root is not None
    return root


def decode(lay: Layout, text: str, index_of: Callable[[Any], int]) -> tuple[Any, Any]:
    """Apply a JSON layout to lay (every pane named once by its index, index_of); returns
    (active pane, last pane) as the document names them (None when it does not).  Raises
    LayoutError with the reason and changes nothing when it does not fit."""

    def fail(cause: str) -> LayoutError:
        return LayoutError(f"invalid layout: {cause}", cause)

    try:
        doc = loads(text)
        if doc.get("version") != 2 or isinstance(doc.get("version"), bool):
            raise JsonError("version must be 2")
        panes = {index_of(p): p for p in lay.panes}
        used: set[int] = set()
        tiled: list[Any] = []
        root_obj = doc.get("root")
        if root_obj is None and "root" not in doc:
            # only floating panes: an empty container of the window's size holds them
            root = LayoutCell(None)
            root.make_node(TOPBOTTOM)
            root.set_size(_int(doc, "width", 1, WINDOW_MAXIMUM, "layout"),
                          _int(doc, "height", 1, WINDOW_MAXIMUM, "layout"), 0, 0)
        elif not isinstance(root_obj, dict):
            raise JsonError("root must be an object")
        else:
            root = _build(root_obj, panes, used, tiled)
        floats: list[LayoutCell] = []
        floating: list[Any] = []
        flist = doc.get("floating", [])
        if not isinstance(flist, list):
            raise JsonError("floating must be an array")
        for o in flist:
            if o.get("type") != "pane":
                raise JsonError("floating: cells are panes")
            lc = LayoutCell(None)
            lc.set_size(_int(o, "width", 1, WINDOW_MAXIMUM, "floating"),
                        _int(o, "height", 1, WINDOW_MAXIMUM, "floating"),
                        _int(o, "x", -WINDOW_MAXIMUM, WINDOW_MAXIMUM, "floating"),
                        _int(o, "y", -WINDOW_MAXIMUM, WINDOW_MAXIMUM, "floating"))
            idx = _int(o, "pane", -(1 << 31), (1 << 31) - 1, "floating")
            if idx not in panes:
                raise JsonError(f"no pane {idx}")
            if idx in used:
                raise JsonError(f"pane {idx} appears twice")
            used.add(idx)
            floats.append(lc)
            floating.append(panes[idx])
        if len(used) != len(panes):
            missing = sorted(set(panes) - used)
            raise JsonError(f"pane {missing[0]} is missing")
        active = last = None
        if "active" in doc:
            a = _int(doc, "active", -(1 << 31), (1 << 31) - 1, "layout")
            if a not in panes:
                raise JsonError(f"no pane {a}")
            active = panes[a]
        if "last" in doc:
            a = _int(doc, "last", -(1 << 31), (1 << 31) - 1, "layout")
            if a not in panes:
                raise JsonError(f"no pane {a}")
            last = panes[a]
    except JsonError as e:
        lay.unzoom()
        raise fail(str(e)) from None
    lay.unzoom()
    lay.apply_cells(root, floats, fail, tiled=tiled, floating=floating)
    return active, last
