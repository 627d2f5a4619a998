"""Record the corpus: real programs' raw output, captured inside a tmux 3.7b pane.

Each program runs under ``script`` in an 80x24 pane of a private tmux server, so it sees a real
terminal of a known size (``TERM=tmux-256color``) and ``script`` saves exactly the bytes it wrote.
Interactive programs (less, vim) are driven with ``send-keys``, waiting for the screen to change
between keys. The recordings are committed; CI only replays them (``tests/test_corpus.py``).

    python tests/corpus/record.py            # record every entry
    python tests/corpus/record.py less vim   # only these
    python tests/corpus/record.py --emit cjk # print one synthetic stream (used inside the pane)

Needs the tmux oracle (tests/oracle.py), git, less and vim, and util-linux ``script``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
COLS, ROWS = 80, 24
sys.path.insert(0, os.path.dirname(HERE))
from oracle import ORACLE as TMUX  # noqa: E402

# -- synthetic programs: streams shaped like what real tools send ----------------------------------

def emit_progress() -> bytes:
    """pip/curl/docker-style progress: ``\\r`` redraws, EL, and a multi-line block moved with CUU."""
    out = [b"Downloading package.tar.gz\r\n"]
    spin = "|/-\\"
    for i in range(0, 101, 4):
        bar = "#" * (i // 4) + " " * (25 - i // 4)
        out.append(f"\r\x1b[32m[{bar}]\x1b[0m {i:3d}% {spin[i % 4]}".encode())
    out.append(b"\x1b[K done\r\n")
    names = [b"layer-a", b"layer-b", b"layer-c"]
    out.extend(n + b": waiting\r\n" for n in names)
    for step in range(1, 11):
        out.append(b"\x1b[3A")
        for k, n in enumerate(names):
            done = min(10, step + k)
            out.append(b"\r\x1b[2K" + n + b": " + b"=" * done + b">" + f" {done * 10}%\r\n".encode())
    out.append(b"\x1b[1mall layers pulled\x1b[0m\r\n")
    for i in range(0, 81, 10):  # a bar wider than the line: wraps, then \r only reaches the 2nd row
        out.append(b"\r" + b"." * i + f" {i}".encode())
    out.append(b"\r\n$ ")
    return b"".join(out)


def emit_emoji() -> bytes:
    lines = [
        "family \U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 end",
        "heart \u2764\ufe0f text \u2764 style \u263a\ufe0e smile \u263a\ufe0f",
        "flag \U0001f3f3\ufe0f\u200d\U0001f308 jp \U0001f1ef\U0001f1f5 pair \U0001f1fa\U0001f1f8",
        "skin \U0001f44d\U0001f3fd keycap 1\ufe0f\u20e3 #\ufe0f\u20e3 zwj \U0001f9d1\u200d\U0001f4bb",
        "wide \U0001f600\U0001f601\U0001f602 narrow \u2600 \u2601 vs16 \u2600\ufe0f",
        "\x1b[31mred \U0001f525 fire\x1b[0m \x1b[7mrev \U0001f680\x1b[0m",
    ]
    out = "\r\n".join(lines) + "\r\n"
    out += "x" * 79 + "\U0001f600" + "after wrap\r\n"  # a wide char that does not fit at col 79
    out += "y" * 78 + "\U0001f600" + "z\r\n"            # one that fits exactly
    out += "ab\U0001f600cd\x1b[3D\U0001f601\r\n"       # overwrite half of a wide char
    return out.encode()


def emit_cjk() -> bytes:
    lines = [
        "中文字符测试：你好，世界！",
        "日本語のテキスト　ひらがな カタカナ ｶﾀｶﾅ",
        "한국어 텍스트 안녕하세요",
        "ＦＵＬＬＷＩＤＴＨ　ｆｏｒｍｓ １２３",
        "\x1b[44m蓝色背景\x1b[0m \x1b[1;33m黄色粗体\x1b[0m",
    ]
    out = "\r\n".join(lines) + "\r\n"
    out += "漢" * 45 + "\r\n"  # wraps mid-line at an even column
    out += "a" + "字" * 45 + "\r\n"  # odd start: the 40th doesn't fit at col 79
    out += "表格|名前|値\r\n----|----|--\r\n東京|とうきょう|1\r\n"
    out += "中文中文\x1b[1;3H文\x1b[6;1H\r\n"  # overwrite the second half of a wide char
    return out.encode()


def emit_combining() -> bytes:
    lines = [
        "cafe\u0301 nai\u0308ve re\u0301sume\u0301",
        "stack a\u0300\u0301\u0302\u0303 o\u0308\u0304",
        "hangul \u1100\u1161\u11a8 \u1112\u1161\u11ab",
        "devanagari \u0928\u092e\u0938\u094d\u0924\u0947",
        "thai \u0e01\u0e34\u0e19\u0e02\u0e49\u0e32\u0e27",
        "\u0301 leading mark, wide+mark \u4e2d\u0301 end",
        "z\u0335\u0321a\u0336\u0322l\u0337g\u0338o\u0334",
    ]
    out = "\r\n".join(lines) + "\r\n"
    out += "m" * 79 + "e\u0301" + "x\r\n"  # a mark after the last column
    return out.encode()


def emit_osc8() -> bytes:
    out = [
        b"\x1b]8;;https://example.com/\x1b\\plain link\x1b]8;;\x1b\\ after\r\n",
        b"\x1b]8;id=42;https://example.com/a\x07id link (BEL)\x1b]8;;\x07\r\n",
        b"\x1b[4;34m\x1b]8;;file:///etc/hosts\x1b\\/etc/hosts\x1b]8;;\x1b\\\x1b[0m styled\r\n",
        b"\x1b]8;;https://example.com/long\x1b\\" + b"L" * 90 + b"\x1b]8;;\x1b\\ wrapped\r\n",
        b"\x1b]8;;https://\xe4\xbe\x8b.jp/\x1b\\\xe4\xbe\x8b\xe3\x81\x88 utf-8\x1b]8;;\x1b\\\r\n",
        b"ls --hyperlink: \x1b]8;;file://host/tmp/a\x1b\\\x1b[01;34ma\x1b[0m\x1b]8;;\x1b\\\r\n",
    ]
    return b"".join(out)


def emit_truecolor() -> bytes:
    out = []
    for y in range(4):
        row = []
        for x in range(COLS):
            r, g, b = (x * 255 // (COLS - 1), y * 80, 255 - x * 255 // (COLS - 1))
            row.append(f"\x1b[48;2;{r};{g};{b}m ")
        out.append("".join(row) + "\x1b[0m\r\n")
    out.append("\x1b[38;2;255;100;0mfg semicolon\x1b[0m \x1b[38:2::10:200:30mfg colon\x1b[0m"
               " \x1b[38:2:1:2:3mno-cs colon\x1b[0m\r\n")
    out.append("\x1b[4munder\x1b[0m \x1b[4:0mnone\x1b[0m \x1b[4:1msingle\x1b[0m \x1b[4:2mdouble"
               "\x1b[0m \x1b[4:3mcurly\x1b[0m \x1b[4:4mdotted\x1b[0m \x1b[4:5mdashed\x1b[0m"
               " \x1b[21mdbl21\x1b[0m\r\n")
    out.append("\x1b[4:3;58;2;255;0;0mred curl\x1b[0m \x1b[4;58:5:33mpal ul\x1b[0m"
               " \x1b[4;58:2::1:2:3mcolon ul\x1b[59m reset ul\x1b[0m\r\n")
    out.append("\x1b[1mbold\x1b[22m \x1b[2mdim\x1b[0m \x1b[3mital\x1b[23m \x1b[5mblink\x1b[25m"
               " \x1b[7mrev\x1b[27m \x1b[8mhid\x1b[28m \x1b[9mstrike\x1b[29m \x1b[53mover\x1b[55m\r\n")
    out.append("\x1b[38;5;196m196\x1b[48;5;21m on 21\x1b[0m \x1b[91mbright\x1b[101m bg\x1b[0m"
               " \x1b[38;2;0;0;0;48;2;255;255;255minverse rgb\x1b[0m\r\n")
    out.append("\x1b[48;2;10;20;30m\x1b[Kerase with rgb bg\x1b[0m\r\n")
    return "".join(out).encode()


def emit_htop() -> bytes:
    """A top/htop-like full-screen program: alternate screen, full redraws, scroll region."""
    out = [b"\x1b[?1049h\x1b[?25l\x1b[?1h\x1b="]
    for frame in range(6):
        out.append(b"\x1b[H\x1b[2J" if frame % 3 == 0 else b"\x1b[H")
        for cpu in range(4):
            used = (frame * 7 + cpu * 13) % 40
            out.append(f"\x1b[{cpu + 1};1H  {cpu}\x1b[1m[\x1b[0m\x1b[32m{'|' * used}"
                       f"\x1b[31m{'|' * (used // 4)}\x1b[0m{' ' * (40 - used - used // 4)}"
                       f"\x1b[1m]\x1b[0m {used * 2.5:5.1f}%\x1b[K".encode())
        out.append(f"\x1b[5;1H  Tasks: \x1b[1;36m{120 + frame}\x1b[0m, load average: "
                   f"\x1b[1m0.{frame}2\x1b[0m 0.50 0.40\x1b[K".encode())
        out.append(b"\x1b[7;1H\x1b[30;42m  PID USER      PRI  NI  VIRT   RES S CPU% MEM%"
                   + b" " * 34 + b"\x1b[0m")
        for i in range(16):
            pid = 1000 + (i * 37 + frame * 11) % 500
            line = f"{pid:5d} user{i % 3}     20   0 {i * 123 % 999:4d}M {i * 7:4d}M S {i * 1.5:4.1f} 0.{i}"
            style = b"\x1b[30;46m" if i == frame else b""
            out.append(f"\x1b[{8 + i};1H".encode() + style + line.encode() + b"\x1b[K\x1b[0m")
        out.append(b"\x1b[24;1HF1\x1b[30;46mHelp  \x1b[0mF10\x1b[30;46mQuit\x1b[0m\x1b[K")
    out.append(b"\x1b[8;23r\x1b[23;1H\n\n\x1b[r")  # scroll the process list inside a region
    out.append(b"\x1b[10;5H\x1b[3L\x1b[12;1H\x1b[2M\x1b[9;10H\x1b[4P\x1b[5@\x1b[3X")
    out.append(b"\x1b[1;1H\x1b[?25h")
    return b"".join(out)


def emit_sequences() -> bytes:
    """Titles, names, queries, strings and unknown sequences between text: none may print."""
    out = [
        b"a\x1b]0;title zero\x07b\x1b]2;title two\x1b\\c\r\n",
        b"\x1bkwindow-name\x1b\\d\x1b]7;file://host/tmp\x07e\x1b]133;A\x07f\x1b]133;B\x1b\\g\r\n",
        b"\x1b]52;c;aGVsbG8=\x07h\x1b]52;c;?\x07i\x1b]4;1;rgb:ff/00/00\x07j\x1b]4;1;?\x07k\r\n",
        b"\x1bPtmux;\x1b\x1b]0;inner\x07\x1b\\l\x1bP1$r0m\x1b\\m\x1b_apc title\x1b\\n\r\n",
        b"\x1b[?2026hsync\x1b[?2026l \x1b[5 q\x1b[2 qcursor \x1b[?1004h\x1b[?2004h\x1b[?1000h"
        b"\x1b[?1006hmodes\r\n",
        b"\x1b[c\x1b[>c\x1b[>q\x1b[6n\x1b[5n\x1b[?25$p\x1b[18t queries\r\n",
        b"\x1b]1337;SetMark\x07\x1b]9;notify\x07\x1b]777;notify;a;b\x07\x1bX sos \x1b\\"
        b"\x1b^pm\x1b\\\x1b[99;99z\x1b[?999h\x1b#3\x1b%G unknown\r\n",
        b"\x1b]133;C\x07\x1b]133;D;0\x07\x1b[38;5;1;48;5;2mcol\x1b[m\x1b]10;?\x07\x1b]11;?\x1b\\"
        b" end\r\n",
    ]
    return b"".join(out)


EMITTERS = {
    "progress": emit_progress,
    "emoji": emit_emoji,
    "cjk": emit_cjk,
    "combining": emit_combining,
    "osc8": emit_osc8,
    "truecolor": emit_truecolor,
    "htop": emit_htop,
    "sequences": emit_sequences,
}


# -- the real programs' inputs -------------------------------------------------------------------

def make_tree(d: str) -> None:
    """Files of every kind ls colours: dirs, executables, links (good and broken), archives."""
    os.makedirs(d)
    for name in ("src", "docs", "build"):
        os.mkdir(os.path.join(d, name))
    for name, mode in (("run.sh", 0o755), ("README.md", 0o644), ("notes.txt", 0o644),
                       ("data.tar.gz", 0o644), ("image.png", 0o644), ("setup.py", 0o755)):
        with open(os.path.join(d, name), "w") as f:
            f.write("x\n")
        os.chmod(os.path.join(d, name), mode)
    os.symlink("README.md", os.path.join(d, "link"))
    os.symlink("missing", os.path.join(d, "broken"))
    os.mkdir(os.path.join(d, "sticky"))
    os.chmod(os.path.join(d, "sticky"), 0o1777)


def make_repo(d: str) -> None:
    """A repository with branches and merges at fixed dates, so the graph has every shape."""
    env = dict(os.environ, GIT_AUTHOR_NAME="A U Thor", GIT_AUTHOR_EMAIL="a@example.com",
               GIT_COMMITTER_NAME="A U Thor", GIT_COMMITTER_EMAIL="a@example.com",
               GIT_CONFIG_NOSYSTEM="1", HOME=d)
    t = [1700000000]

    def git(*args: str) -> None:
        t[0] += 3600
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"{t[0]} +0000"
        subprocess.run(["git", *args], cwd=d, env=env, check=True, capture_output=True)

    os.makedirs(d)
    git("init", "-q", "-b", "main")

    def commit(msg: str) -> None:
        name = msg.split(":")[0].split()[0] + ".txt"  # one file per line of work: no conflicts
        with open(os.path.join(d, name), "a") as f:
            f.write(msg + "\n")
        git("add", name)
        git("commit", "-q", "-m", msg)

    commit("initial commit")
    commit("add parser")
    git("checkout", "-q", "-b", "feature")
    commit("feature: first step")
    commit("feature: second step")
    git("checkout", "-q", "main")
    commit("fix typo on main")
    git("checkout", "-q", "-b", "hotfix")
    commit("hotfix: urgent")
    git("checkout", "-q", "main")
    git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature")
    git("merge", "-q", "--no-ff", "-m", "Merge branch 'hotfix'", "hotfix")
    commit("release 1.0")
    git("tag", "v1.0")


def make_text(path: str) -> None:
    with open(path, "w") as f:
        for i in range(1, 121):
            f.write(f"line {i:3d}: the quick brown fox jumps over the lazy dog {'#' * (i % 30)}\n")
            if i % 17 == 0:
                f.write("\tTabbed\tcolumns\there and a long line " + "-" * 70 + "\n")


def make_source(path: str) -> None:
    with open(path, "w") as f:
        f.write('"""A module."""\n\nimport os\n\n\ndef main(argv: list[str]) -> int:\n'
                '    # count the arguments\n    total = 0\n    for arg in argv:\n'
                '        total += len(arg)  # 中文 comment\n    print(f"total={total}")\n'
                '    return 0\n\n\nclass Thing:\n    value = 42\n\n    def go(self):\n'
                '        return os.getcwd()\n\n\nif __name__ == "__main__":\n'
                '    raise SystemExit(main([]))\n')


# -- driving tmux ----------------------------------------------------------------------------------

class Recorder:
    def __init__(self, tmp: str) -> None:
        self.tmp = tmp
        # HMUX_ORACLE: the emitters run this file in the pane, whose HOME has no oracle cache
        self.env = dict(os.environ, TMUX_TMPDIR=tmp, LANG="C.UTF-8", LC_ALL="C.UTF-8",
                        HOME=tmp, TERM="xterm-256color", HMUX_ORACLE=TMUX)
        self.env.pop("TMUX", None)
        self.tmux("new-session", "-d", "-s", "keep", "-x", str(COLS), "-y", str(ROWS))
        self.tmux("set", "-g", "default-terminal", "tmux-256color")
        self.tmux("set", "-g", "remain-on-exit", "on")

    def tmux(self, *args: str) -> str:
        p = subprocess.run([TMUX, "-L", "rec", "-f", "/dev/null", *args], env=self.env,
                           capture_output=True, text=True, check=True)
        return p.stdout

    def screen(self, name: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", name)

    def wait(self, cond, what: str, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if cond():
                return
            time.sleep(0.05)
        raise SystemExit(f"timed out waiting for {what}")

    def keys(self, name: str, *keys: str) -> None:
        """Send keys one by one, each after the screen has settled from the previous one."""
        for k in keys:
            before = self.screen(name)
            self.tmux("send-keys", "-t", name, "--", *k.split(" "))
            try:
                self.wait(lambda b=before: self.screen(name) != b, f"{name} to react", 2.0)
            except SystemExit:
                pass  # some keys (a no-op move) do not change the screen
            self.settle(name)

    def settle(self, name: str) -> None:
        last, same = self.screen(name), 0
        while same < 4:
            time.sleep(0.05)
            now = self.screen(name)
            same = same + 1 if now == last else 0
            last = now

    def record(self, name: str, command: str, cwd: str, drive=None) -> bytes:
        out = os.path.join(self.tmp, name + ".raw")
        self.tmux("new-session", "-d", "-s", name, "-x", str(COLS), "-y", str(ROWS), "-c", cwd,
                  f"script -q -f -e --log-out {out} -c {_sh_quote(command)}")
        if drive is not None:
            drive(self, name)
        self.wait(lambda: self.tmux("display", "-p", "-t", name, "#{pane_dead}").strip() == "1",
                  f"{name} to finish")
        self.tmux("kill-session", "-t", name)
        with open(out, "rb") as f:
            data = f.read()
        # script's log starts with a "Script started" line and ends with "Script done": not output
        data = data.split(b"\n", 1)[1]
        return data[:data.rindex(b"\nScript done on ")]


def _sh_quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def drive_less(r: Recorder, name: str) -> None:
    r.wait(lambda: "line   1" in r.screen(name), "less to start")
    r.keys(name, "Space", "Space", "b", "/fox Enter", "n", "G", "g", "-N Enter", "j", "q")


def drive_vim(r: Recorder, name: str) -> None:
    r.wait(lambda: "def main" in r.screen(name), "vim to start")
    r.keys(name, "j", "j", "j", "w", "w", "dd", "o", "Hello, Space 世界 Escape", "G", "k",
           "v", "k", "k", "Escape", ":set Space number Enter", "/total Enter", "gg", ":q! Enter")


def programs(tmp: str) -> dict[str, tuple[str, str, object]]:
    """name -> (shell command, working directory, driver)."""
    me = f"{sys.executable} {os.path.abspath(__file__)} --emit"
    tree, repo = os.path.join(tmp, "tree"), os.path.join(tmp, "repo")
    text, src = os.path.join(tmp, "text.txt"), os.path.join(tmp, "thing.py")
    if not os.path.exists(tree):
        make_tree(tree)
        make_repo(repo)
        make_text(text)
        make_source(src)
    progs: dict[str, tuple[str, str, object]] = {
        "ls": ("ls --color=always -F -C; ls --color=always -l --time-style=+T", tree, None),
        "git-log": ("git -c color.ui=always log --graph --color=always --decorate "
                    "--format='%C(auto)%h%d %s %C(green)%an%C(reset)' --all", repo, None),
        "less": (f"less -R {text}", tmp, drive_less),
        "vim": (f"vim -N -u NONE -i NONE -c 'syntax on' -c 'set hlsearch' {src}", tmp, drive_vim),
    }
    for k in EMITTERS:
        progs[k] = (f"{me} {k}", tmp, None)
    return progs


def main(argv: list[str]) -> int:
    if argv[:1] == ["--emit"]:
        sys.stdout.buffer.write(EMITTERS[argv[1]]())
        sys.stdout.buffer.flush()
        return 0
    with tempfile.TemporaryDirectory(prefix="hmux-corpus-") as tmp:
        r = Recorder(tmp)
        try:
            progs = programs(tmp)
            for name in argv or list(progs):
                command, cwd, drive = progs[name]
                data = r.record(name, command, cwd, drive)
                with open(os.path.join(HERE, name + ".raw"), "wb") as f:
                    f.write(data)
                print(f"{name}: {len(data)} bytes")
        finally:
            subprocess.run([TMUX, "-L", "rec", "kill-server"], env=r.env, capture_output=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
