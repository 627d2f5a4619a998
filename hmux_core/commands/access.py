"""server-access: let other users connect, read-only or not (tmux 3.3a's cmd-server-access.c)."""

from __future__ import annotations

import os
import pwd

from .queue import CMD_RETURN_NORMAL, CmdItem
from .registry import command


@command("server-access")
def cmd_server_access(item: CmdItem) -> int:
    args, server = item.args, item.server
    acl = server.acl
    if args.has("l"):
        for line in acl.lines():
            item.print(line)
        return CMD_RETURN_NORMAL
    if len(args) == 0:
        return item.error("missing user argument")
    name = item.expand(args.string(0) or "")
    try:
        pw = pwd.getpwnam(name) if name else None
    except KeyError:
        pw = None
    if pw is None:
        return item.error(f"unknown user: {name}")
    uid = pw.pw_uid
    if uid in (0, os.getuid()):
        return item.error(f"{pw.pw_name} owns the server, can't change access")
    if args.has("a") and args.has("d"):
        return item.error("-a and -d cannot be used together")
    if args.has("w") and args.has("r"):
        return item.error("-r and -w cannot be used together")
    if args.has("d"):
        if not acl.find(uid):
            return item.error(f"user {pw.pw_name} not found")
        for c in list(server.clients):
            if c.uid == uid:  # connected clients of a denied user go at once
                c.request_exit(message="access not allowed")
        acl.deny(uid)
        return CMD_RETURN_NORMAL
    if args.has("a"):
        if acl.find(uid):
            return item.error(f"user {pw.pw_name} is already added")
        acl.allow(uid)
    elif args.has("r") or args.has("w"):
        acl.allow(uid)  # -r or -w adds a user not yet allowed
    if args.has("r") or args.has("w"):
        readonly = args.has("r")
        acl.set_readonly(uid, readonly)
        for c in server.clients:
            if c.uid == uid:
                c.readonly = readonly
    return CMD_RETURN_NORMAL
