"""Settings a system service keeps itself, not the settings provider: read and written through
the service's own shell command, whose output is a fixed sentence.

A `setting` probe whose namespace is a service (``setting netpolicy "restrict-background"``)
is read by ``cmd SERVICE get KEY`` and written by ``cmd SERVICE set KEY true|false``. Each
known key is listed here with the exact sentence its service prints; anything else it prints
is an error, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

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
