"""Who may connect to the server and who may only watch (tmux 3.3a's server-acl.c).

The owner and root are always present and writable; other uids get in only after
``server-access -a``. The kernel's peer credentials (SO_PEERCRED) name a client's uid, so a
client cannot claim to be someone else.
"""

from __future__ import annotations

import os
import pwd


class Acl:
    """uid -> read-only flag for every user allowed to connect."""

    def __init__(self, owner: int | None = None) -> None:
        owner = os.getuid() if owner is None else owner
        self.users: dict[int, bool] = {0: False, owner: False}

    def find(self, uid: int) -> bool:
        return uid in self.users

    def allow(self, uid: int) -> None:
        self.users.setdefault(uid, False)

    def deny(self, uid: int) -> None:
        self.users.pop(uid, None)

    def set_readonly(self, uid: int, readonly: bool) -> None:
        if uid in self.users:
            self.users[uid] = readonly

    def join(self, uid: int) -> bool | None:
        """The read-only flag a new client of ``uid`` gets, or None when it may not connect."""
        if uid < 0:
            return None
        return self.users.get(uid)

    def lines(self) -> list[str]:
        """``server-access -l``: every user but root, by uid, ``name (R)`` or ``name (W)``."""
        out = []
        for uid in sorted(self.users):
            if uid == 0:
                continue
            try:
                name = pwd.getpwuid(uid).pw_name
            except KeyError:
                name = "unknown"
            out.append(f"{name} ({'R' if self.users[uid] else 'W'})")
        return out
