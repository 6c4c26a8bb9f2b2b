"""Settings a system service keeps itself, not the settings provider: read and written through
the service's own shell command, whose output is a fixed sentence.

A `setting` probe whose namespace is a service (``setting netpolicy "restrict-background"``)
is read by ``cmd SERVICE get KEY`` and written by ``cmd SERVICE set KEY true|false``. Each
known key is listed here with the exact sentence its service prints; anything else it prints
is an error, never a guess.

A `setting` probe of ``media_session`` reads what the media session service keeps for the
app's player (``dumpsys media_session``: see :class:`SessionValue`); it cannot be written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tasklang.envs.device import parse
from tasklang.envs.device.parse import OutputError


@dataclass(frozen=True)
class ServiceSetting:
    """A boolean a service keeps: ``cmd SERVICE get KEY`` prints ``label`` and then
    ``enabled`` or ``disabled`` on one line. Its raw value is `1` / `0` (a boolean's plain
    stored form)."""

    service: str
    key: str
    label: str

    def get(self) -> tuple[str, ...]:
        return ("cmd", self.service, "get", self.key)

    def set(self, raw: str) -> tuple[str, ...]:
        """The command that stores a raw value (`1` / `0`)."""
        if raw not in ("1", "0"):
            raise ValueError(f"`{self.service} {self.key}` holds 1 or 0, not {raw[:40]!r}")
        return ("cmd", self.service, "set", self.key, "true" if raw == "1" else "false")

    def parse(self, text: str) -> str:
        """The raw value in what ``get`` printed.

        >>> DATA_SAVER.parse("Restrict background status: enabled\\n")
        '1'
        """
        line = text.removesuffix("\n").removesuffix("\r")
        word = line.removeprefix(self.label)
        if line == word or word not in ("enabled", "disabled"):
            raise OutputError(
                f"`cmd {self.service} get {self.key}` printed {text.strip()[:80]!r}, "
                f"not `{self.label}enabled` or `{self.label}disabled`"
            )
        return "1" if word == "enabled" else "0"

    def output(self, raw: str | None) -> str:
        """What ``get`` prints for a raw value (a service always holds one: unset is off)."""
        return f"{self.label}{'enabled' if raw == '1' else 'disabled'}\n"


# Data Saver: NetworkPolicyManagerShellCommand, Android 7 on
DATA_SAVER = ServiceSetting("netpolicy", "restrict-background", "Restrict background status: ")
SERVICE_SETTINGS = {(s.service, s.key): s for s in (DATA_SAVER,)}


def service_setting(namespace: str | None, key: str | None) -> ServiceSetting | None:
    """The service setting a `setting` probe reads (None: a settings provider key)."""
    return SERVICE_SETTINGS.get((namespace or "", key or ""))


class SessionUnread(ValueError):
    """The player's media session does not tell the value exactly (no session, several, a
    state or a description that says no one thing): the setting is not read, never guessed."""


@dataclass(frozen=True)
class SessionValue:
    """A value the media session service keeps for a player (read only): ``dumpsys
    media_session`` prints each session with its owner's package, its PlaybackState
    (MediaSessionRecord.dump) and the description of its metadata, which
    ``MediaSession.setMetadata`` prints as ``size=N, description=TITLE, SUBTITLE,
    DESCRIPTION`` (a music player's title, artist and album; ``description=null`` where it
    set none, and ``metadata: null`` where it never set any).

    `title` is the description's title, read only where the description splits into its
    three parts one way (no part holds ``, ``) and holds no line break; `playing` is whether
    the state is STATE_PLAYING (3), not where it is STATE_NONE, STATE_STOPPED or
    STATE_PAUSED (0-2) or the session has none; any other state (buffering, skipping, an
    error) is unread.
    Exactly one session of the player must be listed, and the records printed must be as many
    as the stacks say they hold (text an app gave cannot pass for a record): with no session
    the player is not running and what it last played is not told."""

    key: str

    def get(self) -> tuple[str, ...]:
        return ("dumpsys", "media_session")

    def read(self, text: str, package: str) -> str | None:
        """The raw value (`title`: the text, None for no metadata; `playing`: `1` / `0`) in
        what ``get`` printed for the player ``package``.

        >>> dump = MEDIA_SESSION_HEAD + session_record("p", "Song, Artist, Album", 3)
        >>> SESSION_VALUES["title"].read(dump, "p"), SESSION_VALUES["playing"].read(dump, "p")
        ('Song', '1')
        """
        listing = parse.parse_media_sessions(text)
        if len(listing.sessions) != listing.listed:
            raise SessionUnread(
                f"{len(listing.sessions)} media session records printed where the stacks list "
                f"{listing.listed}: text a session holds breaks its lines"
            )
        found = [s for s in listing.sessions if s.package == package]
        if len(found) != 1:
            raise SessionUnread(f"{len(found) or 'no'} media sessions of {package} listed, not one")
        session = found[0]
        if not session.whole:
            raise SessionUnread(f"the metadata of {package}'s session holds a line break")
        if self.key == "playing":
            if session.state is None or 0 <= session.state <= 2:
                return "0"
            if session.state == 3:
                return "1"
            raise SessionUnread(
                f"the state {session.state} of {package}'s session is neither playing nor "
                "paused or stopped"
            )
        if session.metadata == "null":  # the player never set any
            return None
        m = _METADATA.fullmatch(session.metadata)
        if m is None:
            raise parse.OutputError(
                f"`dumpsys media_session`: {package}'s metadata {session.metadata[:60]!r}"
            )
        if m["description"] == "null":
            return None
        parts = m["description"].split(", ")
        if len(parts) != 3 or parts[0] == "null":
            raise SessionUnread(
                f"the title in the description {m['description'][:60]!r} is not told exactly"
            )
        return parts[0]


_METADATA = re.compile(r"size=\d+, description=(?P<description>.*)", re.S)

MEDIA_SESSION_HEAD = (
    "MEDIA SESSION SERVICE (dumpsys media_session)\n\n"
    "0 sessions listeners.\nGlobal priority session is null\nUser Records:\n"
    "Record for full_user=0\n  Volume key long-press listener: null\n"
    "  Volume key long-press listener package: \n  Media key event receiver: null\n"
)


def session_record(package: str, description: str | None, state: int | None) -> str:
    """One session record as MediaSessionRecord.dump prints it (under the stack's header),
    for a player whose metadata's description is ``description`` (None: no metadata) and
    whose PlaybackState's state is ``state`` (None: none)."""
    shown = "null" if state is None else (
        f"PlaybackState {{state={state}, position=0, buffered position=0, speed=1.0, "
        f"updated=0, actions=0, custom actions=[], active item id=-1, error=null}}"
    )  # fmt: skip
    size = 0 if description is None else 3
    return (
        f"  Media button session is {package}/{package} (userId=0)\n"
        "  Sessions Stack - have 1 sessions:\n"
        f"    {package} {package}/{package} (userId=0)\n"
        "      ownerPid=4242, ownerUid=10123, userId=0\n"
        f"      package={package}\n"
        "      launchIntent=null\n"
        "      mediaButtonReceiver=null\n"
        "      active=true\n"
        "      flags=3\n"
        "      rating type=0\n"
        "      controllers: 1\n"
        f"      state={shown}\n"
        "      audioAttrs=AudioAttributes: usage=USAGE_MEDIA content=CONTENT_TYPE_MUSIC "
        "flags=0x800 tags= bundle=null\n"
        "      volumeType=1, controlType=2, max=0, current=0\n"
        f"      metadata: size={size}, description={'null' if description is None else description}\n"
        "      queueTitle=null, size=0\n"
    )


# the values a `setting media_session KEY` probe reads
SESSION_VALUES = {key: SessionValue(key) for key in ("title", "playing")}


def session_value(namespace: str | None, key: str | None) -> SessionValue | None:
    """The media session value a `setting` probe reads (None: not a media session probe)."""
    return SESSION_VALUES.get(key or "") if namespace == "media_session" else None
