"""Session commands: new-session, has-session, list-sessions, kill-session, rename-session."""

from __future__ import annotations

from typing import Any

from .. import target as T
from ..format import format_true
from ..model import Environ
from ..options import Options, strtonum
from ..sort import order_from_string, sort_items
from ..spawn import SpawnContext, SpawnError, client_cwd, spawn_window
from .queue import CMD_RETURN_ERROR, CMD_RETURN_NORMAL, CmdItem
from .registry import command
from .util import parse_environ_args

NEW_SESSION_TEMPLATE = "#{session_name}:"
LIST_SESSIONS_TEMPLATE = (
    "#{session_name}: #{session_windows} windows "
    "(created #{t:session_created})"
    "#{?session_grouped, (group ,}"
    "#{session_group}#{?session_grouped,),}"
    "#{?session_attached, (attached),}"
)


def check_name(name: str) -> str | None:
    """tmux 3.7b's check_name then clean_name for a session or window name a command gives:
    None unless printable ASCII and UTF-8; a backslash is doubled. Empty names, ``:`` and
    ``.`` are allowed (3.7a)."""
    from ..screen.names import clean_name

    raw = name.encode("utf-8", "surrogateescape").decode("latin-1")
    return clean_name(raw, untrusted=False)


@command("has-session")
def cmd_has_session(item: CmdItem) -> int:
    return CMD_RETURN_NORMAL


@command("new-session")
def cmd_new_session(item: CmdItem) -> int:
    args = item.args
    server = item.server
    model = server.model
    c = item.client if item.client is not None and not item.client.is_config else None
    if args.has("t") and (args.argv or args.has("n")):
        return item.error("command or window name given with target")
    newname = None
    wname = None
    if args.get("n") is not None:
        name = item.expand(args.get("n") or "", T.State())
        wname = check_name(name)
        if wname is None:
            return item.error(f"invalid window name: {name}")
    if args.get("s") is not None:
        name = item.expand(args.get("s") or "", T.State())
        newname = check_name(name)
        if newname is None:
            return item.error(f"invalid session name: {name}")
    if args.has("A"):
        existing = model.sessions.get(newname) if newname is not None else item.target.s
        if existing is not None:
            from .clients import attach_session

            return attach_session(item, existing.name, detach_other=args.has("D"),
                                  kill_other=args.has("X"), cflag=args.get("c"),
                                  keep_environment=args.has("E"), fflag=args.get("f"))
    if newname is not None and newname in model.sessions:
        return item.error(f"duplicate session: {newname}")

    group = args.get("t")
    groupwith = sg = None
    prefix = None
    if group is not None:
        groupwith = item.target.s
        if groupwith is None:
            sg = model.groups.get(group)
        else:
            sg = groupwith.group
        if sg is not None:
            prefix = sg.name
        elif groupwith is not None:
            prefix = groupwith.name
        else:
            prefix = check_name(group)
            if prefix is None:
                return item.error(f"invalid session group name: {group}")

    detached = args.has("d") or c is None
    already_attached = c is not None and c.session is not None
    if args.get("c") is not None:
        cwd = item.expand(args.get("c") or "", T.State())
    else:
        cwd = client_cwd(server, c, None)

    if not detached and not already_attached and not c.control:
        assert c is not None
        if T.client_nested(model, c):
            return item.error("sessions should be nested with care, unset $TMUX to force")
        if c.fd < 0:
            return item.error("open terminal failed: not a terminal")
        if not server.attach_supported():
            return item.error("open terminal failed: attaching needs the attach support of hmux")

    sizes = []
    for letter, default in (("x", 80), ("y", 24)):
        value = args.get(letter)
        if value is None:
            sizes.append(default)
            continue
        if value == "-":
            sizes.append((c.sx if letter == "x" else c.sy) if c is not None else default)
            continue
        n, err = strtonum(value, 1, 65535)
        if err is not None:
            return item.error(f"{'width' if letter == 'x' else 'height'} {err}")
        sizes.append(n)
    dsx, dsy = sizes

    if not detached and c is not None and not c.control:  # a control client: default-size
        sx, sy = c.sx, c.sy
        if sy > 0 and server.session_options.get("status") not in (False, 0, "off"):
            sy -= 1
    else:
        text = str(server.session_options.get("default-size"))
        try:
            sx, sy = (int(v) for v in text.split("x", 1))
            if args.has("x"):
                sx = dsx
            if args.has("y"):
                sy = dsy
        except ValueError:
            sx, sy = dsx, dsy
    sx, sy = max(sx, 1), max(sy, 1)

    oo = Options(parent=server.session_options, scope="session")
    if args.has("x") or args.has("y"):
        if not args.has("x"):
            dsx = sx
        if not args.has("y"):
            dsy = sy
        oo.set("default-size", f"{dsx}x{dsy}")
    env = Environ()
    if c is not None and not args.has("E"):
        update_environment(server.session_options, c.environ, env)
    for entry in parse_environ_args(args.values("e")):
        env.set(*entry)
    s = model.create_session(newname, cwd, oo, env, prefix=prefix)
    if c is not None and not detached:
        s.tio = _client_tio(c)
    sc = SpawnContext(s=s, argv=[a for a in args.argv if isinstance(a, str)],
                      cwd=item.expand(args.get("c") or "", T.State()) if args.get("c") else None,
                      name=wname,
                      client=c, tc=None if detached else c)
    try:
        spawn_window(server, sc)
    except SpawnError as e:
        model.destroy_session(s)
        return item.error(f"create window failed: {e}")
    if group is not None:
        from .groups import add_to_group

        add_to_group(server, s, sg, groupwith, group)
    server.notify("session-created", {"session": s})
    if not detached and c is not None:
        server.attach_client(c, s, new_client=not already_attached)
    if args.has("P"):
        template = args.get("F") or NEW_SESSION_TEMPLATE
        item.print(item.expand(template, T.from_session(s)))
    if not args.has("d"):
        item.state.current = T.from_session(s)
    item.target = T.from_session(s)
    server.run_hook("after-new-session", item)
    if server.config_loaded.is_set():
        server.show_cfg_causes(s)
    return CMD_RETURN_NORMAL


def _client_tio(c: Any) -> Any:
    import termios

    try:
        return termios.tcgetattr(c.fd) if c.fd >= 0 else None
    except termios.error:
        return None


def update_environment(session_options: Any, src: Environ, dst: Environ) -> None:
    """environ_update: copy the ``update-environment`` variables from the client."""
    patterns = session_options.get("update-environment") or []
    if isinstance(patterns, str):
        patterns = patterns.split()
    items = None
    for pat in patterns:
        found = None
        if not any(c in pat for c in "*?["):
            # A plain name (all of the default list): a lookup, not a match against every
            # variable, which a new server's first session paid 5 ms for (fnmatch compiles).
            if pat in src.values:
                found = (pat, src.values[pat])
        else:
            import fnmatch

            if items is None:
                items = src.sorted_items()
            for name, value in items:
                if fnmatch.fnmatchcase(name, pat):
                    found = (name, value)
                    break
        if found is None:
            dst.clear(pat)
        else:
            dst.set(found[0], found[1])


def sort_args(item: CmdItem) -> tuple[str | None, bool] | None:
    """``-O`` and ``-r`` of a list command (sort.c); None after tmux's error for a bad order."""
    args = item.args
    order = order_from_string(args.get("O"))
    if order is None and args.has("O"):
        item.error("invalid sort order")
        return None
    return order, args.has("r")


@command("list-sessions")
def cmd_list_sessions(item: CmdItem) -> int:
    args = item.args
    template = args.get("F") or LIST_SESSIONS_TEMPLATE
    flt = args.get("f")
    how = sort_args(item)
    if how is None:
        return CMD_RETURN_ERROR
    sessions = sort_items("session", item.server.model.sorted_sessions(), *how)
    for n, s in enumerate(sessions):
        st = T.from_session(s)
        extra = {"line": str(n)}
        if flt is not None and not format_true(item.expand(flt, st, **extra)):
            continue
        item.print(item.expand(template, st, **extra))
    return CMD_RETURN_NORMAL


@command("kill-session")
def cmd_kill_session(item: CmdItem) -> int:
    args = item.args
    model = item.server.model
    s = item.target.s
    assert s is not None
    if args.has("C"):
        for wl in s.windows.values():
            wl.flags = 0
        return CMD_RETURN_NORMAL
    if args.has("a"):
        for other in model.sorted_sessions():
            if other is not s:
                item.server.destroy_session(other)
    elif args.has("g") and s.group is not None:  # every session of the group (3.6)
        for member in list(s.group.sessions):
            item.server.destroy_session(member)
    else:
        item.server.destroy_session(s)
    return CMD_RETURN_NORMAL


@command("rename-session")
def cmd_rename_session(item: CmdItem) -> int:
    s = item.target.s
    assert s is not None
    model = item.server.model
    tmp = item.expand(item.args.argv[0], item.target)
    newname = check_name(tmp)
    if newname is None:
        return item.error(f"invalid session name: {tmp}")
    if newname == s.name:
        return CMD_RETURN_NORMAL
    if newname in model.sessions:
        return item.error(f"duplicate session: {newname}")
    model.rename_session(s, newname)
    item.server.notify("session-renamed", {"session": s})
    return CMD_RETURN_NORMAL


__all__ = ["cmd_new_session", "CMD_RETURN_ERROR"]
