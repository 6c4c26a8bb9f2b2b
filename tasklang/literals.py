"""Decoding literal source text into IR values.

>>> decode("money", "$12.5")
(1250, 'money')
>>> decode("duration", "1h30m")
(5400, 'duration')
>>> decode("string", '"a\\\\tb"')
('a\\tb', 'text')
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

_DURATION_PART = re.compile(r"(\d+)([dhms])")
_UNIT_SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t"}


class LiteralError(ValueError):
    """A malformed literal; ``code`` is TL0009 or TL0010."""

    def __init__(self, code: str, message: str, help: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.help = help


def decode(kind: str, text: str) -> tuple[Any, str]:
    """The value and type name of a literal of the given AST kind."""
    decoder = _DECODERS[kind]
    return decoder(text)


def decode_string(text: str) -> str:
    """The value of a string literal (with its quotes)."""
    body = text[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1] if i + 1 < len(body) else ""
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt == "u":
            match = re.match(r"u\{([0-9A-Fa-f]{1,6})\}", body[i + 1 :])
            code = int(match.group(1), 16) if match else -1
            if not match or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                raise LiteralError(
                    "TL0010", "invalid unicode escape", "write `\\u{HEX}` with a valid code point"
                )
            out.append(chr(code))
            i += 1 + match.end()
        else:
            shown = nxt if nxt.isprintable() else "?"
            raise LiteralError(
                "TL0010",
                f"unknown escape `\\{shown}`",
                'use `\\\\`, `\\"`, `\\n`, `\\t` or `\\u{HEX}`',
            )
    return "".join(out)


def encode_string(value: str) -> str:
    """A string literal (with quotes) that decodes to ``value``.

    >>> encode_string('say "hi"\\n')
    '"say \\\\"hi\\\\"\\\\n"'
    """
    out = ['"']
    for ch in value:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif not ch.isprintable():
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _string(text: str) -> tuple[Any, str]:
    return decode_string(text), "text"


def _int(text: str) -> tuple[Any, str]:
    return int(text), "int"


def _decimal(text: str) -> tuple[Any, str]:
    return float(text), "number"


def _money(text: str) -> tuple[Any, str]:
    whole, _, frac = text[1:].partition(".")
    cents = int(whole) * 100 + int((frac + "00")[:2] or "0")
    return cents, "money"


def _date(text: str) -> tuple[Any, str]:
    try:
        return dt.date.fromisoformat(text).isoformat(), "date"
    except ValueError:
        raise LiteralError(
            "TL0009", f"`{text}` is not a valid date", "dates are written YYYY-MM-DD"
        ) from None


def _time(text: str) -> tuple[Any, str]:
    try:
        return dt.time.fromisoformat(text).isoformat(), "time"
    except ValueError:
        raise LiteralError(
            "TL0009",
            f"`{text}` is not a valid time",
            "times are written HH:MM or HH:MM:SS, 00:00 to 23:59:59",
        ) from None


def _datetime(text: str) -> tuple[Any, str]:
    try:
        return dt.datetime.fromisoformat(text).isoformat(), "datetime"
    except ValueError:
        raise LiteralError(
            "TL0009",
            f"`{text}` is not a valid datetime",
            "datetimes are written YYYY-MM-DDTHH:MM[:SS]",
        ) from None


def _duration(text: str) -> tuple[Any, str]:
    units = [u for _, u in _DURATION_PART.findall(text)]
    if len(set(units)) != len(units) or units != sorted(units, key="dhms".index):
        raise LiteralError(
            "TL0009",
            f"`{text}` is not a valid duration",
            "write units from largest to smallest, each once: `1h30m`",
        )
    return sum(int(n) * _UNIT_SECONDS[u] for n, u in _DURATION_PART.findall(text)), "duration"


def _bool(text: str) -> tuple[Any, str]:
    return text == "true", "bool"


def _null(text: str) -> tuple[Any, str]:
    return None, "null"


_DECODERS = {
    "string": _string,
    "int": _int,
    "decimal": _decimal,
    "money": _money,
    "date": _date,
    "time": _time,
    "datetime": _datetime,
    "duration": _duration,
    "bool": _bool,
    "null": _null,
}


def format_value(value: Any, type_name: str) -> str:
    """A value as a person reads it in a goal (money as dollars, durations as `1h30m`).

    >>> format_value(1250, "money"), format_value(5400, "duration")
    ('$12.50', '1h30m')
    """
    if value is None:
        return ""
    if type_name == "money" and isinstance(value, int):
        sign = "-" if value < 0 else ""
        return f"{sign}${abs(value) // 100}.{abs(value) % 100:02d}"
    if type_name == "duration" and isinstance(value, int):
        parts = []
        rest = value
        for unit in "dhms":
            n, rest = divmod(rest, _UNIT_SECONDS[unit])
            if n:
                parts.append(f"{n}{unit}")
        return "".join(parts) or "0s"
    if type_name == "time" and isinstance(value, str) and value.endswith(":00"):
        return value[:5]
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(format_value(v, type_name) for v in value)
    return str(value)
