"""The devices the Bluetooth service keeps bonded (``service "bluetooth_manager"`` probes).

``dumpsys bluetooth_manager`` prints the manager's state under ``Bluetooth Status``
(``enabled: true``, ``state: ON``) and, while the adapter runs, the adapter's own dump, which
lists the bonded devices under ``Bonded devices:``, one per line: the address, the device's
type in brackets and its name (``  AA:BB:CC:DD:EE:FF [ DUAL ] Pixel Buds``; newer releases
mask the address's first bytes, ``XX:XX:XX:XX:EE:FF``). With Bluetooth off the adapter lists
nothing: the devices are then not read (:class:`parse.Unread`), never taken for none; nor are
they where two share a name (a device is told apart by its name), nor where the dump says
its state in words this module does not know.

A device only in range is no record of the service: a reading lists the bonded devices, and
every record it does not list is known to be not paired (:func:`unlisted`).
"""

from __future__ import annotations

import re
from typing import Any

from tasklang.envs.device.parse import Unread

DUMP = ("dumpsys", "bluetooth_manager")
HEADER = "Bonded devices:"
_ENABLED = re.compile(r"^\s*enabled: (true|false)\s*$", re.M)
_ADDRESS = r"[0-9A-FX]{2}(?::[0-9A-FX]{2}){5}"
_ROW = re.compile(rf"\s+{_ADDRESS}\s+\[[^\]\n]*\] ?(?P<name>.*)")


def bonded(text: str) -> list[str]:
    """The names of the bonded devices ``dumpsys bluetooth_manager`` printed.

    >>> bonded("Bluetooth Status\\n  enabled: true\\n  state: ON\\n\\nBonded devices:\\n"
    ...        "  XX:XX:XX:XX:0A:01 [ BR/EDR ] Galaxy Buds2\\n\\n")
    ['Galaxy Buds2']
    """
    enabled = _ENABLED.search(text)
    if enabled is None:  # a release that says it otherwise: the devices are not read
        raise Unread(f"`dumpsys bluetooth_manager` printed {text.strip()[:80]!r}, no state")
    if enabled[1] == "false":
        raise Unread("Bluetooth is off: the phone lists no bonded devices")
    lines = [line.rstrip("\r") for line in text.split("\n")]
    start = next((i for i, line in enumerate(lines) if line.strip() == HEADER), None)
    if start is None:
        raise Unread("the Bluetooth adapter printed no bonded devices (it is not running)")
    names = []
    for line in lines[start + 1 :]:
        m = _ROW.fullmatch(line)
        if m is None:  # the list ends at the first line that is no device
            break
        names.append(m["name"].strip())
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise Unread(f"two bonded devices are named {twice[0]!r}: they cannot be told apart")
    return names


def rows(text: str) -> list[dict[str, str | None]]:
    """The bonded devices as raw rows of the service's attributes (``paired`` 1)."""
    return [{"name": name, "paired": "1"} for name in bonded(text)]


def unlisted(columns: dict[str, str]) -> dict[str, Any]:
    """What every record a reading does not list holds, by field (``columns``: field ->
    attribute): not paired."""
    return {f: False for f, attr in columns.items() if attr == "paired"}


def output(enabled: bool, names: list[str]) -> str:
    """What ``dumpsys bluetooth_manager`` prints of the state and the bonded devices (listed
    only while Bluetooth is on)."""
    out = ["Bluetooth Status", f"  enabled: {'true' if enabled else 'false'}",
           f"  state: {'ON' if enabled else 'OFF'}", ""]  # fmt: skip
    if enabled:
        out.append(HEADER)
        out += [f"  XX:XX:XX:XX:{i // 256:02X}:{i % 256:02X} [ BR/EDR ] {n}"
                for i, n in enumerate(names, 1)]  # fmt: skip
        out.append("")
    return "\n".join(out) + "\n"
