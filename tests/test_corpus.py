"""The corpus, replayed into same-size panes of tmux 3.7b and hmux: the screens must be identical.

Each recording in ``tests/corpus`` (see ``record.py``) is ``cat``-ed into an 80x24 pane of both
servers (the pane's terminal is raw, so the bytes reach the emulator as the program wrote them and
replies to queries do not echo). When the pane's command has become ``sleep`` the replay is done;
then ``capture-pane -p -e -S -`` (escapes and history), ``capture-pane -p``, the alternate screen
and the cursor and mode state are compared byte for byte. Recordings that leave an alternate
screen (less, vim) are replayed a second time cut just before they leave it, so the full-screen
state itself is compared too.
"""

from __future__ import annotations

import os
import re
import uuid

import pytest
from harness import HMUX, TMUX, Mux, base_env, wait_for

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
NAMES = sorted(f[:-4] for f in os.listdir(CORPUS) if f.endswith(".raw"))
LEAVE_ALT = b"\x1b[?1049l"
STATE = ("#{cursor_x},#{cursor_y} alt=#{alternate_on} cursor=#{cursor_flag} insert=#{insert_flag}"
         " kcursor=#{keypad_cursor_flag} keypad=#{keypad_flag} mouse=#{mouse_any_flag}"
         "#{mouse_sgr_flag}#{mouse_button_flag}#{mouse_standard_flag} origin=#{origin_flag}"
         " wrap=#{wrap_flag} region=#{scroll_region_upper}-#{scroll_region_lower}"
         " history=#{history_size} path=#{pane_path} title=#{pane_title}")
DONE = "sleep"


def _cases(tmp: str) -> dict[str, str]:
    """case name -> file to replay: each recording, and the alternate-screen cut where it has one."""
    cases = {}
    for name in NAMES:
        path = os.path.join(CORPUS, name + ".raw")
        cases[name] = path
        with open(path, "rb") as f:
            data = f.read()
        cut = data.rfind(LEAVE_ALT)
        if cut > 0:
            cut_path = os.path.join(tmp, name + "-alt.raw")
            with open(cut_path, "wb") as f:
                f.write(data[:cut])
            cases[name + "-alt"] = cut_path
    return cases


def _replay(m: Mux, cases: dict[str, str]) -> dict[str, dict[str, str]]:
    """Replay every case in its own window of one session; read back what we compare."""
    windows = {}
    m.ok("new-session", "-d", "-s", "c", "-x", "80", "-y", "24", f"exec {DONE} 1000001")
    for i, (name, path) in enumerate(cases.items(), start=1):
        m.ok("new-window", "-d", "-t", f"c:{i}", f"stty raw -echo; cat '{path}'; exec {DONE} 1000002")
        windows[name] = f"c:{i}"

    def done() -> bool:
        out = m.ok("list-panes", "-s", "-t", "c", "-F", "#{window_index} #{pane_current_command}")
        return all(line.split(" ", 1)[1] == DONE for line in out.splitlines())

    wait_for(done, timeout=60, interval=0.1)
    got = {}
    for name, target in windows.items():
        r = {
            "capture -e -S -": m.capture(target, "-e", "-S", "-"),
            "capture": m.capture(target),
            "capture -C -N": m.capture(target, "-C", "-N"),
            "state": m.ok("display", "-p", "-t", target, STATE),
        }
        alt = m.cmd("capture-pane", "-p", "-a", "-e", "-q", "-t", target)
        r["capture -a -e"] = alt.out
        got[name] = r
    return got


@pytest.fixture(scope="module")
def replays(tmp_path_factory) -> dict[str, dict[str, dict[str, str]]]:
    tmp = str(tmp_path_factory.mktemp("corpus"))
    sock = os.path.join(tmp, "sock")
    os.makedirs(sock)
    cases = _cases(tmp)
    out = {}
    for kind, argv0 in (("tmux", [TMUX]), ("hmux", HMUX)):
        env = base_env(sock)
        env["HMUX_ENGINE"] = os.environ.get("HMUX_ENGINE", "python")  # tmux's input.c, ported
        m = Mux(argv0, ["-L", kind[0] + uuid.uuid4().hex[:8]], env, cwd=env["HOME"])
        try:
            out[kind] = _replay(m, cases)
        finally:
            m.kill()
    return out


def _case_names() -> list[str]:
    names = []
    for name in NAMES:
        names.append(name)
        with open(os.path.join(CORPUS, name + ".raw"), "rb") as f:
            if f.read().rfind(LEAVE_ALT) > 0:
                names.append(name + "-alt")
    return names


def test_corpus_is_recorded() -> None:
    """The corpus holds every kind of program the issue names, each small enough to commit."""
    assert {"ls", "git-log", "less", "vim", "htop", "progress", "emoji", "cjk", "combining",
            "osc8", "truecolor", "sequences"} <= set(NAMES)
    for name in NAMES:
        size = os.path.getsize(os.path.join(CORPUS, name + ".raw"))
        assert 0 < size < 64 * 1024, name


@pytest.mark.parametrize("case", _case_names())
def test_corpus_replay(replays, case: str) -> None:
    want, got = replays["tmux"][case], replays["hmux"][case]
    # less leaves a blank main screen; its "-alt" cut is the one with something on it
    shown = want["capture"].strip() or case + "-alt" in replays["tmux"]
    assert shown, f"{case}: tmux's screen is empty, the replay did not run"
    for key in want:
        assert got[key] == want[key], f"{case}: {key} differs"


# -- the drawn screen ------------------------------------------------------------------------------

DRAWN = ["ls", "git-log", "htop", "progress", "emoji", "cjk", "combining", "truecolor", "vim-alt",
         "less-alt", "osc8", "sequences"]


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> dict[str, dict[str, str]]:
    """Each recording replayed in a tmux and an hmux session attached in an outer tmux pane:
    what the outer pane shows is what the attached client drew."""
    tmp = str(tmp_path_factory.mktemp("drawn"))
    sock = os.path.join(tmp, "sock")
    os.makedirs(sock)
    cases = {k: v for k, v in _cases(tmp).items() if k in DRAWN}
    env = base_env(sock)
    env["HMUX_ENGINE"] = os.environ.get("HMUX_ENGINE", "python")
    outer = Mux([TMUX], ["-L", "o" + uuid.uuid4().hex[:8]], env, cwd=env["HOME"])
    inner = {"tmux": Mux([TMUX], ["-L", "t" + uuid.uuid4().hex[:8]], env, cwd=env["HOME"]),
             "hmux": Mux(HMUX, ["-L", "h" + uuid.uuid4().hex[:8]], env, cwd=env["HOME"])}
    out: dict[str, dict[str, str]] = {"tmux": {}, "hmux": {}}
    try:
        outer.ok("new-session", "-d", "-s", "o", "-x", "80", "-y", "24", f"exec {DONE} 1000003")
        for kind, m in inner.items():
            m.ok("new-session", "-d", "-s", "c", "-x", "80", "-y", "24", f"exec {DONE} 1000001")
            m.ok("set", "-g", "status", "off")
            for i, path in enumerate(cases.values(), start=1):
                m.ok("new-window", "-d", "-t", f"c:{i}",
                     f"stty raw -echo; cat '{path}'; exec {DONE} 1000002")
            argv = " ".join(m.argv0 + m.socket_args + ["attach", "-t", "c"])
            outer.ok("new-window", "-d", "-t", "o", "-n", kind, f"{argv}; exec {DONE} 1000004")
            wait_for(lambda m=m: m.ok("list-clients", "-F", "#{client_name}").strip())
        for i, name in enumerate(cases, start=1):
            for m in inner.values():
                m.ok("select-window", "-t", f"c:{i}")

            def shown(i: int = i, name: str = name) -> bool:
                """Both clients drew window i: their first rows are the panes' first rows."""
                ok = True
                for kind, m in inner.items():
                    out[kind][name] = outer.capture(f"o:{kind}", "-e")
                    out[kind][name + " plain"] = outer.capture(f"o:{kind}")
                    pane = m.capture(f"c:{i}")
                    ok = ok and out[kind][name + " plain"].split("\n")[0] == pane.split("\n")[0]
                return ok and out["tmux"][name] == out["hmux"][name]

            try:
                wait_for(shown, timeout=5)
            except AssertionError:
                pass  # test_corpus_drawn reports the difference from what was drawn last
    finally:
        for m in (*inner.values(), outer):
            m.kill()
    return out


@pytest.mark.parametrize("case", DRAWN)
def test_corpus_drawn(drawn, case: str) -> None:
    assert drawn["tmux"][case].strip(), case
    assert drawn["hmux"][case + " plain"] == drawn["tmux"][case + " plain"], f"{case}: text"
    assert _cells(drawn["hmux"][case]) == _cells(drawn["tmux"][case]), f"{case}: styles"


_SLOT = {30: "fg", 40: "bg", 50: "us"}
_OFF = {22: ("1", "2"), 23: ("3",), 24: ("4",), 25: ("5", "6"), 27: ("7",), 28: ("8",),
        29: ("9",), 55: ("53",)}


def _cells(captured: str) -> list[list[tuple[str, tuple[str, ...]]]]:
    """capture-pane -e text as rows of (character, SGR state) for what can be seen: where the
    codes fall (before or after a run of blanks) differs with how the screen was drawn."""
    rows = []
    state: dict[str, str] = {}  # capture-pane -e carries the codes' state from line to line
    for line in captured.split("\n"):
        row = []
        for tok in re.findall(r"\x1b\[([0-9;:]*)m|(.)", line):
            code, ch = tok
            if ch:
                row.append((ch, tuple(sorted(state.items()))))
                continue
            parts = code.split(";") if code else ["0"]
            j = 0
            while j < len(parts):
                p = parts[j]
                n = int(p.split(":")[0] or 0)
                if n == 0:
                    state.clear()
                elif n in (38, 48, 58) and ":" not in p and j + 1 < len(parts):
                    k = 3 if parts[j + 1] == "5" else 5
                    state[_SLOT[n // 10 * 10]] = ";".join(parts[j:j + k])
                    j += k - 1
                elif 30 <= n <= 37 or 90 <= n <= 97 or n in (38, 39):
                    state["fg"] = p
                elif 40 <= n <= 47 or 100 <= n <= 107 or n in (48, 49):
                    state["bg"] = p
                elif n in (58, 59):
                    state["us"] = p
                elif n in _OFF:
                    for a in _OFF[n]:
                        state.pop(a, None)
                else:
                    state["4" if n in (4, 21) else p] = p
                j += 1
        row = [(ch, tuple((k, v) for k, v in st if v not in ("39", "49", "59"))) for ch, st in row]
        while row and row[-1][0] == " " and not any(k in ("bg", "7") for k, _ in row[-1][1]):
            row.pop()
        rows.append(row)
    return rows
