"""The records the Wi-Fi service keeps: the saved networks (``service "wifi"`` probes).

``cmd wifi list-networks`` (Android 11 on) prints the saved networks, one per line under a
header, each as its network id (12 columns), its SSID without quotes (32 columns: spaces at
the end of an SSID read as padding) and the names of its security types, joined by ``/`` (a
type the service added itself, such as WPA3 for a WPA2 network, carries a ``^``); with none
saved it prints ``No networks``. ``cmd wifi status`` prints whether Wi-Fi is on and, for each
connection (a phone with concurrent connections has a secondary one), ``Wifi is connected to
"SSID"``.

A network only in range is no record of the service: the phone keeps nothing of it. So a
reading lists the records whose `saved` is true, and every record it does not list is known
to be unsaved and, where the phone is connected to a listed network or to none, not connected
(:func:`unlisted`). A connection to a network the service does not list leaves the collection
unread (:class:`Unlisted`): never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tasklang.envs.device.parse import OutputError

LIST = ("cmd", "wifi", "list-networks")
STATUS = ("cmd", "wifi", "status")
HEADER = "Network Id      SSID                         Security type"
NONE_SAVED = "No networks"
# the names the service gives the security types (WifiConfiguration's), as the model's enum
# of them names them; the others (enterprise networks, OWE, WAPI, Passpoint) have no value
SECURITY = {"open": "open", "wep": "wep", "wpa2-psk": "wpa2", "wpa3-sae": "wpa3"}
SECURITY_NAMES = (
    "open", "wep", "wpa2-psk", "wpa2-enterprise", "wpa3-sae", "wpa3 enterprise 192-bit", "owe",
    "wapi-psk", "wapi-cert", "wpa3 enterprise", "passpoint r1/r2", "passpoint r3", "dpp",
    "unknown",
)  # fmt: skip
_TYPE = "(?:" + "|".join(re.escape(n) for n in SECURITY_NAMES) + r")\^?"
# a row after its 12 columns of network id and the space after them
_ROW = re.compile(rf"(?P<ssid>.*?) (?P<types>{_TYPE}(?:/{_TYPE})*) *")
_STATE = re.compile(r"Wifi is (enabled|disabled)")
_CONNECTED = re.compile(r"^Wifi is connected to (.*?)\r?$", re.M)


class Unlisted(ValueError):
    """The phone is connected to a network the service does not list: whether the networks
    it does not list are connected is not known, so the collection is not read."""


@dataclass(frozen=True)
class Network:
    """One saved network as ``list-networks`` prints it."""

    ssid: str
    security: str  # the first type's name, without its `^`


def parse_networks(text: str) -> list[Network]:
    """The saved networks ``cmd wifi list-networks`` printed.

    >>> parse_networks(HEADER + "\\n0            Office Main                      wpa2-psk/wpa3-sae^\\n")
    [Network(ssid='Office Main', security='wpa2-psk')]
    >>> parse_networks("No networks\\n")
    []
    """
    lines = [line.rstrip("\r") for line in text.strip("\n").split("\n")]
    if lines == [NONE_SAVED]:
        return []
    if not lines or lines[0].rstrip() != HEADER.rstrip():
        raise OutputError(f"`cmd wifi list-networks` printed {text.strip()[:80]!r}, not networks")
    out = []
    for line in lines[1:]:
        m = _ROW.fullmatch(line[13:]) if re.fullmatch(r"\d+ *", line[:12]) else None
        if m is None or line[12:13] != " ":
            raise OutputError(f"`cmd wifi list-networks` printed {line[:80]!r}, not a network")
        # the SSID is padded to 32 columns: the spaces after it are padding
        out.append(Network(m["ssid"].rstrip(" "), m["types"].split("/")[0].rstrip("^")))
    return out


def parse_status(text: str) -> tuple[bool, list[str | None]]:
    """Whether Wi-Fi is on, and the networks it is connected to, as ``cmd wifi status``
    printed them (None: a connection it names without quotes, which is no SSID the saved
    networks are listed by: ``<unknown ssid>``, where the shell may not see it, or a name
    in hex).

    >>> parse_status('Wifi is enabled\\nWifi is connected to "Office Main"\\nWifiInfo: ...\\n')
    (True, ['Office Main'])
    """
    first = text.lstrip("\n").split("\n", 1)[0].rstrip("\r")
    state = _STATE.fullmatch(first.strip())
    if state is None:
        raise OutputError(f"`cmd wifi status` printed {text.strip()[:80]!r}, not Wi-Fi's state")
    named = [m.strip() for m in _CONNECTED.findall(text)]
    return state[1] == "enabled", [
        n[1:-1] if len(n) >= 2 and n[0] == n[-1] == '"' else None for n in named
    ]


def rows(networks_text: str, status_text: str) -> list[dict[str, str | None]]:
    """The saved networks as raw rows of the service's attributes (``saved`` and
    ``connected`` as 1 / 0). Raises :class:`Unlisted` for a connection to a network not
    listed."""
    networks = parse_networks(networks_text)
    _, connected = parse_status(status_text)
    stray = [c for c in connected if c is None or c not in {n.ssid for n in networks}]
    if stray:
        which = "a network it does not name" if stray[0] is None else repr(stray[0])
        raise Unlisted(
            f"the phone is connected to {which}, which the Wi-Fi service does not list as "
            "saved: the networks it does not list are not known to be disconnected"
        )
    return [
        {"ssid": n.ssid, "security": n.security, "saved": "1",
         "connected": "1" if n.ssid in connected else "0"}
        for n in networks
    ]  # fmt: skip


def unlisted(columns: dict[str, str]) -> dict[str, Any]:
    """What every record a reading does not list holds, by field (``columns``: field ->
    attribute): not saved, and not connected (a reading that names another connection is
    :class:`Unlisted`)."""
    return {f: False for f, attr in columns.items() if attr in ("saved", "connected")}


def kept(columns: dict[str, str], record: dict[str, Any]) -> bool:
    """Whether the service can hold ``record`` (``columns``: field -> attribute): a network
    connected to is saved (connecting saves it), so one that is not saved is not connected.

    >>> kept({"saved": "saved", "connected": "connected"}, {"saved": False, "connected": True})
    False
    """
    saved = next((f for f, attr in columns.items() if attr == "saved"), None)
    if saved is None or record.get(saved) is not False:
        return True
    return all(record.get(f) is v for f, v in unlisted(columns).items())


def networks_output(records: list[dict[str, Any]]) -> str:
    """What ``cmd wifi list-networks`` prints for these saved networks (``ssid`` and
    ``security`` as the service names them)."""
    if not records:
        return NONE_SAVED + "\n"
    lines = [HEADER]
    for i, r in enumerate(records):
        lines.append(f"{i:<12d} {r['ssid']:<32s} {r['security']:<4s}")
    return "\n".join(lines) + "\n"


def status_output(enabled: bool, connected: list[str]) -> str:
    """What ``cmd wifi status`` prints (each connection named as given, whatever the state:
    a phone connected with Wi-Fi off is no phone's, but a world may say so)."""
    out = [f"Wifi is {'enabled' if enabled else 'disabled'}", "Wifi scanning is always available"]
    if enabled and not connected:
        out += ["==== Primary ClientModeManager instance ====", "Wifi is not connected"]
    for i, ssid in enumerate(connected):
        out.append(f"==== {'Primary' if i == 0 else 'Secondary'} ClientModeManager instance ====")
        out.append(f'Wifi is connected to "{ssid}"')
    return "\n".join(out) + "\n"
