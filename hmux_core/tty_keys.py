"""Keys from an attached client's terminal: bytes in, (key code, raw bytes) out.

The table of sequences is built from :func:`hmux_core.keys.encode_key` itself — every named key
with every modifier combination, in normal and application cursor/keypad modes — so the decoder
and the encoder can never disagree about what a sequence means. An escape sequence that is not
in the table still comes out whole, as ``KEYC_UNKNOWN`` with its bytes, and is passed to the pane
unchanged. A lone ESC (or an unfinished sequence) waits ``escape-time`` for the rest.

Mouse reports (``CSI < b;x;y M/m``, ``CSI M bxy`` and, with ``utf8_mouse``, its UTF-8 form)
come out as ``KEYC_MOUSE`` with the whole report; :mod:`hmux_core.mouse` reads it. Only a CSI
whose third byte is ``<`` or ``M`` is looked at, so ordinary keys pay nothing for the mouse.

The terminal's answers to what the server asked it come out whole as ``KEYC_UNKNOWN`` with
their bytes, for the attached client to read rather than pass on: OSC 52 (clipboard), OSC 10
and 11 (its colours) and OSC 4 (a palette entry), as tmux 3.7b's tty_keys_clipboard,
tty_keys_colours and tty_keys_palette take them (:func:`osc_reply`, :func:`colour_reply`,
:func:`palette_reply`, :func:`clipboard_reply`); its theme reports (``CSI ? 997 ; 1|2 n``,
mode 2031) are the keys ReportDarkTheme and ReportLightTheme.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import keys as K
from .mouse import scan_report

Key = tuple[int, bytes]

_MODS = (0, K.KEYC_SHIFT, K.KEYC_META, K.KEYC_CTRL, K.KEYC_SHIFT | K.KEYC_META,
         K.KEYC_SHIFT | K.KEYC_CTRL, K.KEYC_META | K.KEYC_CTRL,
         K.KEYC_SHIFT | K.KEYC_META | K.KEYC_CTRL)


_XTERM_KEYS = (
    (b"\x1b[1;_P", "F1"), (b"\x1bO1;_P", "F1"), (b"\x1bO_P", "F1"),
    (b"\x1b[1;_Q", "F2"), (b"\x1bO1;_Q", "F2"), (b"\x1bO_Q", "F2"),
    (b"\x1b[1;_R", "F3"), (b"\x1bO1;_R", "F3"), (b"\x1bO_R", "F3"),
    (b"\x1b[1;_S", "F4"), (b"\x1bO1;_S", "F4"), (b"\x1bO_S", "F4"),
    (b"\x1b[15;_~", "F5"), (b"\x1b[17;_~", "F6"), (b"\x1b[18;_~", "F7"),
    (b"\x1b[19;_~", "F8"), (b"\x1b[20;_~", "F9"), (b"\x1b[21;_~", "F10"),
    (b"\x1b[23;_~", "F11"), (b"\x1b[24;_~", "F12"),
    (b"\x1b[1;_A", "Up"), (b"\x1b[1;_B", "Down"), (b"\x1b[1;_C", "Right"),
    (b"\x1b[1;_D", "Left"), (b"\x1b[1;_H", "Home"), (b"\x1b[1;_F", "End"),
    (b"\x1b[5;_~", "PPage"), (b"\x1b[6;_~", "NPage"), (b"\x1b[2;_~", "IC"),
    (b"\x1b[3;_~", "DC"),
)
_IM = K.KEYC_META | K.KEYC_IMPLIED_META
#: The modifier parameter of xterm's sequences (index) -> tmux's modifier bits.
_XTERM_MODIFIERS = (None, None, K.KEYC_SHIFT, _IM, K.KEYC_SHIFT | _IM, K.KEYC_CTRL,
                    K.KEYC_SHIFT | K.KEYC_CTRL, _IM | K.KEYC_CTRL,
                    K.KEYC_SHIFT | _IM | K.KEYC_CTRL, _IM)


#: rxvt's function keys: the number in ESC [ n ~ (with ^ for Ctrl, @ for Ctrl+Shift) -> F<n>;
#: ESC [ 23~ to 34~ are Shift-F1 to Shift-F10 there.
_RXVT_F = ((11, 1), (12, 2), (13, 3), (14, 4), (15, 5), (17, 6), (18, 7), (19, 8), (20, 9),
           (21, 10), (23, 11), (24, 12))
_RXVT_SHIFT_F = ((23, 1), (24, 2), (25, 3), (26, 4), (28, 5), (29, 6), (31, 7), (32, 8),
                 (33, 9), (34, 10))
#: Keys read whatever the terminal's description says: xterm's and rxvt's (tty-keys.c).
_OTHER_KEYS = (
    (b"\x1b[H", "Home"), (b"\x1b[F", "End"), (b"\x1bOH", "Home"), (b"\x1bOF", "End"),
    (b"\x1b[1~", "Home"), (b"\x1b[4~", "End"), (b"\x1b[Z", "BTab"),
    (b"\x1bOa", "C-Up"), (b"\x1bOb", "C-Down"), (b"\x1bOc", "C-Right"), (b"\x1bOd", "C-Left"),
    (b"\x1b[a", "S-Up"), (b"\x1b[b", "S-Down"), (b"\x1b[c", "S-Right"), (b"\x1b[d", "S-Left"),
    *((b"\x1b[%d~" % n, f"F{f}") for n, f in _RXVT_F[:10]),
    *((b"\x1b[%d~" % n, f"S-F{f}") for n, f in _RXVT_SHIFT_F),
    (b"\x1b[23$", "S-F11"), (b"\x1b[24$", "S-F12"),
    *((b"\x1b[%d^" % n, f"C-F{f}") for n, f in _RXVT_F),
    *((b"\x1b[%d@" % n, f"C-S-F{f}") for n, f in _RXVT_F),
    (b"\x1b[1;5Z", "C-S-Tab"),
)


@lru_cache(maxsize=1)
def _table() -> dict[bytes, int]:
    table: dict[bytes, int] = {}
    names = [n for n in K.KEY_NAMES if n] if hasattr(K, "KEY_NAMES") else []
    bases = {K.string_to_key(n) for n in names}
    bases.discard(K.KEYC_UNKNOWN)
    for base in sorted(bases):
        if not K.is_special_key(base):
            continue
        if K.is_mouse_key(base):
            continue
        for mods in _MODS:
            key = base | mods
            for kw in ({}, {"cursor_app": True}, {"keypad_app": True}):
                try:
                    seq = K.encode_key(key, **kw)
                except Exception:  # a combination tmux cannot encode
                    continue
                if seq and len(seq) > 1 and seq[0] == 0x1B:
                    table.setdefault(seq, key)
    # xterm's modified keys, CSI 1;<m>X and friends, with every modifier parameter 2-9 tmux
    # reads (tty-keys.c: 3 is Meta, 9 a lone Meta from terminals that send it).
    for template, name in _XTERM_KEYS:
        base = K.string_to_key(name)
        for m, mods in enumerate(_XTERM_MODIFIERS):
            if mods is not None:
                table.setdefault(template.replace(b"_", str(m).encode()), base | mods)
    # Sequences terminals send that tmux's encoder does not produce, rxvt's among them (tmux
    # knows these whatever TERM says; the terminal's own keys above win where they overlap).
    for seq, name in _OTHER_KEYS:
        table.setdefault(seq, K.string_to_key(name))
    table[b"\x1b[200~"] = K.KEYC_PASTE_START  # bracketed paste (tmux asks the terminal for it)
    table[b"\x1b[201~"] = K.KEYC_PASTE_END
    table[b"\x1b[I"] = K.KEYC_FOCUS_IN  # focus reports (focus-events)
    table[b"\x1b[O"] = K.KEYC_FOCUS_OUT
    table[b"\x1b[?997;1n"] = K.KEYC_REPORT_DARK_THEME  # theme reports (mode 2031, DSR 996)
    table[b"\x1b[?997;2n"] = K.KEYC_REPORT_LIGHT_THEME
    return table


#: The OSC answers read whole, as tmux looks for them in tty_keys_next: its prefix and how many
#: characters the body may have before the terminator (None: no limit, the clipboard's).
_OSC_REPLIES = ((b"\x1b]52;", None), (b"\x1b]10;", 127), (b"\x1b]11;", 127), (b"\x1b]4;", 127))


def osc_reply(buf: bytes, i: int) -> tuple[int, int]:
    """Whether ``buf[i:]`` (``ESC ]``) starts an answer the terminal sends to the server's
    OSC 52, 10, 11 or 4 queries: (0, end) for a whole one ending at ``end``, (1, 0) for a
    start that may still become one, (-1, 0) for anything else (tty_keys_clipboard,
    tty_keys_colours and tty_keys_palette: their 0, 1 and -1)."""
    rest = buf[i:i + 5]
    for prefix, limit in _OSC_REPLIES:
        n = len(prefix)
        if not prefix.startswith(rest[:n]):
            continue
        if len(rest) < n:
            return 1, 0
        start = i + n
        if limit is None:  # the clipboard: BEL, or ST after the first byte of its body
            bel = buf.find(b"\x07", start)
            st = buf.find(b"\x1b\\", start)
            ends = [e + 1 for e in (bel,) if e >= 0] + [e + 2 for e in (st,) if e >= 0]
            if not ends:
                return 1, 0
            return 0, min(ends)
        for j in range(start, min(len(buf), start + limit)):
            if buf[j] == 0x07 or (buf[j] == 0x5C and j > start and buf[j - 1] == 0x1B):
                if n == 4 and palette_reply(buf[i:j + 1]) is None:
                    return -1, 0  # tty_keys_palette: an index that is not 0 to 255
                return 0, j + 1
        if len(buf) < start + limit:
            return 1, 0
        return -1, 0  # too long for tmux's buffer: not an answer
    return -1, 0


def _osc_body(raw: bytes, n: int) -> str:
    """The text between an OSC answer's ``n``-byte prefix and its terminator."""
    body = raw[n:]
    if body.endswith(b"\x07"):
        body = body[:-1]
    elif body.endswith(b"\x1b\\"):
        body = body[:-2]
    return body.decode("latin-1")


def colour_reply(raw: bytes) -> tuple[int, int] | None:
    """An OSC 10 or 11 answer (tty_keys_colours): (10 or 11, colour), colour -1 when it does
    not parse; None for anything else."""
    if not raw.startswith((b"\x1b]10;", b"\x1b]11;")):
        return None
    from .screen.screen import _parse_colour  # colour_parseX11

    body = _osc_body(raw, 5)
    return (10 if raw[3:4] == b"0" else 11), (_parse_colour(body) if body else -1)


def palette_reply(raw: bytes) -> tuple[int, int] | None:
    """An OSC 4 answer (tty_keys_palette): (index, colour), colour -1 when it does not parse;
    None for anything else or an index that is not 0 to 255."""
    if not raw.startswith(b"\x1b]4;"):
        return None
    from .screen.screen import _parse_colour

    m = re.match(r"([+-]?\d+);", _osc_body(raw, 4))
    if m is None or not 0 <= int(m.group(1)) <= 255:
        return None
    return int(m.group(1)), _parse_colour(_osc_body(raw, 4)[m.end():])


def clipboard_reply(raw: bytes) -> tuple[str, bytes] | None:
    """An OSC 52 answer (tty_keys_clipboard): (the clipboard letter or "", the data), or None
    when it is empty or its base64 does not decode (b64_pton's rules)."""
    if not raw.startswith(b"\x1b]52;"):
        return None
    body = _osc_body(raw, 5)
    clip = body[0] if len(body) >= 2 and body[0] != ";" and body[1] == ";" else ""
    sep = body.find(";")
    if sep < 0 or len(body) - sep - 1 < 1:
        return None
    from .escapes import decode_clipboard

    data = decode_clipboard(body)
    return None if data is None else (clip, data)


_EXTENDED = re.compile(rb"\x1b\[(?:27;(\d+);(\d+)[;\d]*~|(\d+);(\d+)[;\d]*u)\Z")


def extended_key(seq: bytes) -> int | None:
    """tty_keys_extended_key: a key in xterm's modifyOtherKeys form (CSI 27 ; m ; k ~) or
    the CSI u form (CSI k ; m u), or None for any other sequence. Shift alone is dropped from
    printable keys (terminals differ on whether S-a comes as A or S-A) and S-Tab is BTab."""
    m = _EXTENDED.match(seq)
    if m is None:
        return None
    mods, number = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(4),
                                                                            m.group(3))
    modifiers = int(mods) & 0xFFFFFFFF
    n = int(number)
    if n == 0x7F:
        key = K.KEYC_BSPACE  # the terminal's VERASE
    elif n < 0x80:
        key = n
    elif n <= 0x10FFFF and not 0xD800 <= n <= 0xDFFF:
        key = K.char_to_key(chr(n))
    else:
        return None
    if modifiers > 0:
        modifiers -= 1
        if modifiers & 1:
            key |= K.KEYC_SHIFT
        if modifiers & (2 | 8):  # Alt, Meta
            key |= K.KEYC_META | K.KEYC_IMPLIED_META
        if modifiers & 4:
            key |= K.KEYC_CTRL
    if key & K.KEYC_MASK_KEY == 0x09 and key & K.KEYC_SHIFT:
        key = K.KEYC_BTAB | (key & ~K.KEYC_MASK_KEY & ~K.KEYC_SHIFT)
    only = key & K.KEYC_MASK_KEY
    if (0x20 < only < 0x7F or K.is_unicode_key(key)) \
            and key & K.KEYC_MASK_MODIFIERS == K.KEYC_SHIFT:
        key &= ~K.KEYC_SHIFT
    return key


def _csi_end(buf: bytes, i: int) -> int:
    """Index after the CSI sequence starting at ``buf[i]`` (ESC [), or -1 if unfinished."""
    j = i + 2
    n = len(buf)
    while j < n:
        c = buf[j]
        if 0x40 <= c <= 0x7E:
            return j + 1
        if c == 0x24 and j > i + 2 and buf[i + 2:j].isdigit():
            return j + 1  # rxvt's Shift-F11 and F12 end at their '$' (ESC [ 23 $)
        if not 0x20 <= c <= 0x3F:
            return j  # malformed: end before the stray byte
        j += 1
    return -1


def _utf8_len(lead: int) -> int:
    if lead < 0xC2 or lead > 0xF4:
        return 1
    if lead < 0xE0:
        return 2
    if lead < 0xF0:
        return 3
    return 4


class KeyDecoder:
    """Splits terminal input into keys; keeps an unfinished tail between calls."""

    def __init__(self) -> None:
        self.pending = b""
        #: Read ``CSI M`` reports as UTF-8 (mode 1005); tmux 3.3a never asks for it.
        self.utf8_mouse = False
        #: Until the terminal's XTVERSION answer came (or the wait ended), ``ESC P`` starts a
        #: reply that comes out whole, up to its ST, rather than M-P.
        self.want_dcs = False

    def feed(self, data: bytes, final: bool = False) -> list[Key]:
        """Keys in ``data`` (plus what was pending). With ``final`` (escape-time ran out) an
        unfinished sequence is flushed as whatever it is so far."""
        buf = self.pending + data
        self.pending = b""
        out: list[Key] = []
        table = _table()
        i, n = 0, len(buf)
        while i < n:
            c = buf[i]
            if c == 0x1B:
                if i + 1 >= n:
                    if not final:
                        self.pending = buf[i:]
                        break
                    out.append((0x1B, b"\x1b"))
                    i += 1
                    continue
                nxt = buf[i + 1]
                if nxt == 0x5D:  # OSC: the terminal's answer to a query, whole
                    status, end = osc_reply(buf, i)
                    if status == 1 and not final:
                        self.pending = buf[i:]
                        break
                    if status == 0:
                        out.append((K.KEYC_UNKNOWN, buf[i:end]))
                        i = end
                        continue
                if nxt == 0x5B:  # CSI
                    if i + 2 < n and (buf[i + 2] == 0x3C or buf[i + 2] == 0x4D):
                        status, end = scan_report(buf, i, self.utf8_mouse)
                        if status == 1 and not final:
                            self.pending = buf[i:]
                            break
                        if status == 0:
                            out.append((K.KEYC_MOUSE, buf[i:end]))
                            i = end
                            continue
                        if status == -2:  # a wheel release some terminals send: dropped
                            i = end
                            continue
                    end = _csi_end(buf, i)
                    if end < 0:
                        if not final:
                            self.pending = buf[i:]
                            break
                        if n - i == 2:  # ESC [ and nothing after it in time: M-[
                            out.append((K.KEYC_META | 0x5B, buf[i:n]))
                            i = n
                            continue
                        end = n
                    seq = buf[i:end]
                    key = extended_key(seq)
                    out.append((table.get(seq, K.KEYC_UNKNOWN) if key is None else key, seq))
                    i = end
                    continue
                if nxt == 0x50 and self.want_dcs:  # DCS: an XTVERSION answer, say
                    end = buf.find(b"\x1b\\", i + 2, i + 132)
                    if end < 0 and n - i < 132 and not final:
                        self.pending = buf[i:]
                        break
                    if end >= 0:
                        out.append((K.KEYC_UNKNOWN, buf[i:end + 2]))
                        i = end + 2
                        continue
                if nxt == 0x4F:  # SS3
                    if i + 2 >= n:
                        if not final:
                            self.pending = buf[i:]
                            break
                        out.append((K.KEYC_META | 0x4F, buf[i:i + 2]))
                        i += 2
                        continue
                    seq = buf[i:i + 3]
                    out.append((table.get(seq, K.KEYC_UNKNOWN), seq))
                    i += 3
                    continue
                if nxt == 0x1B:
                    # ESC + a whole sequence (ESC ESC [ 1 ; 5 A): that key with Meta.
                    sub_decoder = KeyDecoder()
                    sub = sub_decoder.feed(buf[i + 1:i + 65], final=final)
                    if not sub and not final:
                        self.pending = buf[i:]
                        break
                    if sub and sub[0][0] != K.KEYC_MOUSE:
                        key, raw = sub[0]
                        if key != K.KEYC_UNKNOWN:
                            key |= K.KEYC_META
                        out.append((key, b"\x1b" + raw))
                        i += 1 + len(raw)
                        continue
                # ESC + key: the key with Meta.
                sub = KeyDecoder().feed(buf[i + 1:i + 1 + _utf8_len(nxt)], final=True)
                if sub:
                    key, raw = sub[0]
                    out.append((key | K.KEYC_META, b"\x1b" + raw))
                    i += 1 + len(raw)
                else:
                    i += 1
                continue
            if c >= 0x80:
                width = _utf8_len(c)
                if i + width > n and not final:
                    self.pending = buf[i:]
                    break
                raw = buf[i:i + width]
                try:
                    ch = raw.decode("utf-8")
                    out.append((K.char_to_key(ch), raw))
                except UnicodeDecodeError:
                    out.append((K.KEYC_UNKNOWN, buf[i:i + 1]))
                    width = 1
                i += width
                continue
            if c == 0x7F:
                out.append((K.string_to_key("BSpace"), b"\x7f"))
            else:  # C0 controls are Ctrl keys (0x01 is C-a) as tmux 3.7b reads them
                out.append((K.from_c0(c), bytes((c,))))
            i += 1
        return out
