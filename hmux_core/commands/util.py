"""Small helpers shared by command modules."""

from __future__ import annotations


def format_true(text: str) -> bool:
    """format_true: a filter passes when it expands to something other than "" or "0"."""
    return text != "" and text != "0"


def parse_environ_args(values: list[str]) -> list[tuple[str, str | None]]:
    """``-e NAME=value`` arguments as environ_put takes them (no ``=`` means ignored)."""
    out: list[tuple[str, str | None]] = []
    for v in values:
        if "=" not in v:
            continue
        name, value = v.split("=", 1)
        out.append((name, value))
    return out
