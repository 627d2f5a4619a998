"""Just enough of git's config syntax to read the few keys discovery and HEAD depend on.

The plugin reads a repository's own config files (``<common>/config``, and ``config.worktree``
when ``extensions.worktreeConfig`` is on), never the user's or the system's and never
``include``d files: those belong to whoever runs git, which the server is not. What matters is
read correctly, though, because a sloppy reader is how a reftable repository ends up showing a
``.invalid`` branch: ``[extensions] # comment`` still opens the section, keys are
case-insensitive, values may be quoted or continued, and the last assignment wins.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Keys kept, as ``section.key`` in lower case (no subsection).
KEYS = frozenset({
    "core.abbrev", "core.bare", "core.worktree", "core.repositoryformatversion",
    "extensions.objectformat", "extensions.refstorage", "extensions.worktreeconfig",
})

#: A key written without ``=`` is a boolean true.
IMPLICIT_TRUE = object()

_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", '"': '"', "\\": "\\"}


def parse(text: str) -> dict[str, object]:
    """``section.key`` -> raw value (``str``, or :data:`IMPLICIT_TRUE`) for the keys in
    :data:`KEYS`; later assignments replace earlier ones. Malformed lines are skipped (git
    refuses the whole file; a status line should rather keep going)."""
    out: dict[str, object] = {}
    section: str | None = None
    i, n = 0, len(text)
    while i < n:
        # one logical line; a header may be followed by an assignment on the same line
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i >= n:
            break
        c = text[i]
        if c in "#;":
            i = _skip_line(text, i)
            continue
        if c == "[":
            end = text.find("]", i)
            if end < 0 or "\n" in text[i:end]:
                section, i = None, _skip_line(text, i)
                continue
            section = _section_name(text[i + 1:end])
            i = end + 1
            continue
        j = i
        while j < n and (text[j].isalnum() or text[j] == "-"):
            j += 1
        key = text[i:j].lower()
        if not key or not key[0].isalpha():
            i = _skip_line(text, i)
            continue
        k = j
        while k < n and text[k] in " \t":
            k += 1
        if k >= n or text[k] in "\r\n#;":
            value: object = IMPLICIT_TRUE
            i = _skip_line(text, k) if k < n and text[k] in "#;" else k
        elif text[k] == "=":
            value, i = _value(text, k + 1)
        else:
            i = _skip_line(text, i)
            continue
        if section is not None:
            full = f"{section}.{key}"
            if full in KEYS:
                out[full] = value
    return out


def _skip_line(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end + 1


def _section_name(inner: str) -> str | None:
    """``core`` or ``Core`` -> ``core``; anything with a subsection -> ``None`` (never a key we
    want: ``[core "x"]`` is not ``[core]``)."""
    inner = inner.strip()
    if '"' in inner or " " in inner or "\t" in inner:
        return None
    if "." in inner:  # legacy [section.subsection]
        return None
    if not inner or not all(ch.isalnum() or ch in "-" for ch in inner):
        return None
    return inner.lower()


def _value(text: str, i: int) -> tuple[str, int]:
    """Parse a value from ``i`` to the end of its (possibly continued) line."""
    out: list[str] = []
    pending_space = ""
    quoted = False
    n = len(text)
    started = False
    while i < n:
        c = text[i]
        if c == "\n" and not quoted:
            i += 1
            break
        if c == "\n":  # newline inside quotes: git errors; end the value
            i += 1
            break
        if not quoted and c in "#;":
            i = _skip_line(text, i)
            break
        if c == "\\":
            nxt = text[i + 1] if i + 1 < n else ""
            if nxt == "\n":
                i += 2
                continue
            if nxt == "\r" and i + 2 < n and text[i + 2] == "\n":
                i += 3
                continue
            if nxt in _ESCAPES:
                out.append(pending_space)
                pending_space = ""
                out.append(_ESCAPES[nxt])
                started = True
                i += 2
                continue
            i += 2  # bad escape: git errors; drop it
            continue
        if c == '"':
            quoted = not quoted
            out.append(pending_space)
            pending_space = ""
            started = True
            i += 1
            continue
        if c in " \t\r" and not quoted:
            if started:
                pending_space += c
            i += 1
            continue
        out.append(pending_space)
        pending_space = ""
        out.append(c)
        started = True
        i += 1
    return "".join(out), i


def as_bool(value: object) -> bool | None:
    """git's boolean: true/yes/on/1 (or an implicit key), false/no/off/0/empty; else None."""
    if value is IMPLICIT_TRUE:
        return True
    if not isinstance(value, str):
        return None
    v = value.strip().lower()
    if v in ("true", "yes", "on"):
        return True
    if v in ("false", "no", "off", ""):
        return False
    try:
        return int(v, 0) != 0
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class RepoConfig:
    """The settings of one repository that change what the plugin reports."""

    bare: bool = False
    worktree: str | None = None  #: core.worktree as written (absolute, or relative to $GIT_DIR)
    abbrev: int | None = None  #: None: git's default (7 here); else the length to show
    hexsz: int = 40  #: 64 with extensions.objectFormat=sha256
    reftable: bool = False  #: extensions.refStorage names the reftable backend
    worktree_config: bool = False  #: extensions.worktreeConfig: read config.worktree too

    @classmethod
    def from_values(cls, values: dict[str, object]) -> RepoConfig:
        fmt = values.get("extensions.objectformat")
        hexsz = 64 if isinstance(fmt, str) and fmt.strip().lower() == "sha256" else 40
        storage = values.get("extensions.refstorage")
        reftable = isinstance(storage, str) and storage.strip().lower().startswith("reftable")
        wt = values.get("core.worktree")
        return cls(
            bare=as_bool(values.get("core.bare")) is True,
            worktree=wt if isinstance(wt, str) and wt != "" and "\0" not in wt else None,
            abbrev=_abbrev(values.get("core.abbrev"), hexsz),
            hexsz=hexsz,
            reftable=reftable,
            worktree_config=as_bool(values.get("extensions.worktreeconfig")) is True,
        )


def _abbrev(value: object, hexsz: int) -> int | None:
    """core.abbrev as git reads it: ``auto`` (default), a false boolean (the full id), or an
    integer from 4 to the id length (anything else is an error to git; ignored here)."""
    if value is None or value is IMPLICIT_TRUE:
        return None
    assert isinstance(value, str)
    v = value.strip().lower()
    if v == "auto":
        return None
    if v in ("false", "no", "off", ""):
        return hexsz
    try:
        n = int(v, 0)
    except ValueError:
        return None
    return n if 4 <= n <= hexsz else None


def read_file(path: str) -> dict[str, object]:
    """Parse one config file; a missing or unreadable one is empty."""
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 20)
    except OSError:
        return {}
    return parse(data.decode("utf-8", "surrogateescape"))


def read_repo_config(common_dir: str, git_dir: str) -> RepoConfig:
    """The repository's config as git would see it for this worktree (without the user's and
    system files): the common ``config``, overlaid by ``$GIT_DIR/config.worktree`` when
    ``extensions.worktreeConfig`` is on."""
    values = read_file(f"{common_dir}/config")
    if as_bool(values.get("extensions.worktreeconfig")) is True:
        values.update(read_file(f"{git_dir}/config.worktree"))
    return RepoConfig.from_values(values)
