"""An example hmux plugin, packaged as its own distribution.

``#{example_depth}``: how many directories deep the pane's working directory is.
``#{example_busy}``: ``busy`` when the pane printed something in the last two seconds, else
``quiet``. Both are computed on the tick (worker thread) and only looked up in ``resolve``.
"""

from __future__ import annotations

import time

from hmux_core.plugin import API_VERSION, Host, Plugin, hookimpl


class Example(Plugin):
    name = "example"
    api_version = API_VERSION
    variables = ("example_depth", "example_busy")
    interval = 0.25
    option_defaults = (("@example-busy-seconds", "2"),)

    def __init__(self) -> None:
        self.values: dict[tuple[str, str], str] = {}

    def tick(self, host: Host) -> None:
        window = float(host.option("@example-busy-seconds") or 2)
        now = time.time()
        values = {}
        for pane_id in host.panes():
            info = host.pane(pane_id)
            cwd = host.pane_cwd(pane_id)
            if info is None or cwd is None:
                continue
            values[pane_id, "example_depth"] = str(len([p for p in cwd.split("/") if p]))
            busy = info.last_output and now - info.last_output < window
            values[pane_id, "example_busy"] = "busy" if busy else "quiet"
        self.values = values  # one assignment: resolve never sees a half-built dict

    def resolve(self, pane_id: str, key: str) -> str | None:
        return self.values.get((pane_id, key))


@hookimpl
def hmux_plugin() -> Plugin:
    return Example()
