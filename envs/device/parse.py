"""Parsers for what Android's own tools print: `content query`, `settings get`, `sqlite3
-quote`, `ls -lRab` (toybox), `dumpsys window` / `dumpsys activity`, `date`.

Each parser takes the exact text a phone prints and returns raw values (text or None for
NULL); typing them is the codecs' job. Output that fits no known form raises
:class:`OutputError`, so garbage from a device ends an episode instead of becoming state.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

Raw = str | None


class OutputError(ValueError):
    """Device output that is not in the form the command prints."""


# ------------------------------------------------------------------ content query
_ROW = re.compile(r"Row: \d+ ")


def parse_content_rows(text: str, columns: list[str]) -> list[dict[str, Raw]]:
    """Rows of `content query --projection a:b` output (``Row: 0 a=x, b=NULL``).

    A value may hold ``, `` or a newline, so a row is split only where the next projected
    column's ``, name=`` follows, in projection order. ``NULL`` reads as None.

    >>> parse_content_rows("Row: 0 name=Ann, Lee, data1=NULL\\n", ["name", "data1"])
    [{'name': 'Ann, Lee', 'data1': None}]
    """
    body = text  # adb's shell protocol passes output unchanged: a `\r` may be data
    if body.strip() in ("", "No result found."):
        return []
    starts = [m.start() for m in re.finditer(r"(?m)^Row: \d+ ", body)]
    if not starts or body[: starts[0]].strip():
        raise OutputError(f"`content query` printed {body.strip()[:80]!r}, not rows")
    rows = []
    for i, start in enumerate(starts):
        chunk = body[start : starts[i + 1] if i + 1 < len(starts) else len(body)]
        chunk = _ROW.sub("", chunk, count=1).removesuffix("\n")
        rows.append(_split_row(chunk, columns))
    return rows


def _split_row(chunk: str, columns: list[str]) -> dict[str, Raw]:
    out: dict[str, Raw] = {}
    rest = chunk
    for i, col in enumerate(columns):
        prefix = f"{col}="
        if not rest.startswith(prefix):
            raise OutputError(f"expected column `{col}` in row {chunk[:80]!r}")
        rest = rest[len(prefix) :]
        if i + 1 < len(columns):
            cut = rest.find(f", {columns[i + 1]}=")
            if cut < 0:
                raise OutputError(f"expected column `{columns[i + 1]}` in row {chunk[:80]!r}")
            value, rest = rest[:cut], rest[cut + 2 :]
        else:
            value, rest = rest, ""
        out[col] = None if value == "NULL" else value
    return out


# ------------------------------------------------------------------ settings get
def parse_setting(text: str) -> Raw:
    """`settings get` prints the value and a newline, or ``null`` for an unset key.

    >>> parse_setting("1\\n"), parse_setting("null\\n")
    ('1', None)
    """
    value = text.removesuffix("\n")
    if "\n" in value and value.startswith(("Exception", "java.", "Error")):
        raise OutputError(f"`settings get` failed: {value[:80]!r}")
    return None if value == "null" else value


_PREFS_SCALARS = {
    "boolean": re.compile(r"true|false"),
    "int": re.compile(r"-?\d{1,10}"),
    "long": re.compile(r"-?\d{1,19}"),
    "float": re.compile(r"-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?|-?Infinity|NaN"),
}


def parse_prefs_file(text: str) -> dict[str, Raw]:
    """The entries of an app's shared preferences file (`shared_prefs/*.xml`, as Android's
    `SharedPreferences` writes it): a ``<string>``'s text (XML escapes decoded), the
    ``value`` of an ``<int>``, ``<long>``, ``<float>`` or ``<boolean>``, a ``<set>`` of
    strings as a JSON array in file order, None for ``<null>``. An empty output (no file:
    the app has stored nothing yet) has no entries.

    >>> parse_prefs_file('<map><string name="a">x &amp; y</string><int name="n" value="3" />'
    ...                  '<set name="s"><string>p</string></set></map>')
    {'a': 'x & y', 'n': '3', 's': '["p"]'}
    """
    if not text.strip():
        return {}
    if "<!DOCTYPE" in text or "<!ENTITY" in text:  # never in a preferences file
        raise OutputError("shared preferences declare a document type")
    text, controls = _control_refs(text)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise OutputError(f"shared preferences are not XML: {exc}") from None
    if controls:
        for el in root.iter():
            el.text = el.text.translate(controls) if el.text else el.text
            for k, v in el.attrib.items():
                el.attrib[k] = v.translate(controls)
    if root.tag != "map":
        raise OutputError(f"shared preferences start with <{root.tag}>, not <map>")
    out: dict[str, Raw] = {}
    for entry in root:
        name = entry.get("name")
        if name is None:
            raise OutputError(f"a shared preference <{entry.tag}> has no name")
        if name in out:
            raise OutputError(f"shared preference `{name}` is written twice")
        out[name] = _prefs_value(entry, name)
    return out


class Unread(ValueError):
    """State a probe read that cannot be given back exactly (an entry missing, a value that
    does not parse): the collection is left out of the snapshot, never guessed."""


def prefs_record_ids(entries: dict[str, Raw], key: str, start: int | None) -> list[str]:
    """The ids of the records an app keeps in its shared preferences, named by the entry
    ``key``: the members of a string set (``start`` None), in numeric order, or the numbers
    from ``start`` below ``start`` + the count it holds. No entry: no records (what the app
    reads then). Raises :class:`Unread` for an entry that names no ids.

    >>> prefs_record_ids({"timers_list": '["3", "1"]'}, "timers_list", None)
    ['1', '3']
    >>> prefs_record_ids({"sw_lap_num": "2"}, "sw_lap_num", 1), prefs_record_ids({}, "n", 0)
    (['1', '2'], [])
    """
    if key not in entries:
        return []
    raw = entries[key]
    if start is None:
        members = json.loads(raw) if raw is not None and raw.startswith("[") else None
        if not isinstance(members, list):
            raise Unread(f"shared preference `{key}` is not a set of ids")
        bad = [m for m in members if not re.fullmatch(r"\d{1,9}", m)]
        if bad:
            raise Unread(f"shared preference `{key}` holds {bad[0][:40]!r}, which is no id")
        ids = sorted({int(m) for m in members})  # the app names a record's entries by the int
        if len(ids) != len(members):
            raise Unread(f"shared preference `{key}` names a record twice")
        return [str(i) for i in ids]
    if raw is None or not re.fullmatch(r"\d{1,6}", raw):
        raise Unread(f"shared preference `{key}` holds {str(raw)[:40]!r}, which is no count")
    return [str(i) for i in range(start, start + int(raw))]


_CHAR_REF = re.compile(r"&#(?:(\d{1,7})|x([0-9A-Fa-f]{1,6}));")
_NOT_XML = frozenset({*(c for c in range(32) if c not in (9, 10, 13)), 0xFFFE, 0xFFFF})
_NOT_XML_RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _control_refs(text: str) -> tuple[str, dict[int, int]]:
    """Android writes control characters as character references (``&#1;``), and U+FFFE /
    U+FFFF as they are, neither of which XML 1.0 allows: each becomes a private-use
    character absent from the text, and the table that turns them back."""

    def code(m: re.Match[str]) -> int:
        return int(m[1]) if m[1] else int(m[2], 16)

    wanted = {code(m) for m in _CHAR_REF.finditer(text)} & _NOT_XML
    wanted |= {ord(c) for c in _NOT_XML_RAW.findall(text)}
    if not wanted:
        return text, {}
    used = set(text)
    free = (p for p in range(0xE000, 0xF900) if chr(p) not in used)
    stand_in = {c: next(free, None) for c in sorted(wanted)}
    if None in stand_in.values():
        raise OutputError("shared preferences hold every private-use character")
    swap = {c: chr(p) for c, p in stand_in.items() if p is not None}
    text = _CHAR_REF.sub(lambda m: swap.get(code(m), m[0]), text)
    text = _NOT_XML_RAW.sub(lambda m: swap[ord(m[0])], text)
    return text, {p: c for c, p in stand_in.items() if p is not None}


def _prefs_value(entry: ET.Element, name: str) -> Raw:
    tag = entry.tag
    if tag == "string":
        return str(entry.text or "")
    if tag == "null":
        return None
    if tag == "set":
        items = list(entry)
        if any(i.tag != "string" for i in items):
            raise OutputError(f"shared preference set `{name}` holds more than strings")
        return json.dumps([i.text or "" for i in items], ensure_ascii=False)
    shape = _PREFS_SCALARS.get(tag)
    if shape is None:
        raise OutputError(f"shared preference `{name}` is a <{tag}>")
    value = entry.get("value")
    if value is None or not shape.fullmatch(value):
        raise OutputError(f"shared preference <{tag} name={name!r}> has value {value!r}")
    return str(value)


# ------------------------------------------------------------------ sqlite3 -quote
def parse_sqlite_quote(text: str) -> list[dict[str, Raw]]:
    """Rows of `sqlite3 -header -quote` output: a header of quoted names, then SQL literals
    (``'text'`` with doubled quotes, numbers, ``NULL``, ``X'hex'``) separated by commas.

    >>> parse_sqlite_quote("'name','amount'\\n'Tea, hot',350\\n'it''s',NULL\\n")
    [{'name': 'Tea, hot', 'amount': '350'}, {'name': "it's", 'amount': None}]
    """
    records = _sql_records(text)
    if not records:
        return []
    header = records[0]
    if any(h is None for h in header):
        raise OutputError("`sqlite3` printed a header with NULL names")
    names = [h or "" for h in header]
    rows = []
    for row in records[1:]:
        if len(row) != len(names):
            raise OutputError(f"`sqlite3` row has {len(row)} values for {len(names)} columns")
        rows.append(dict(zip(names, row, strict=True)))
    return rows


def _sql_records(text: str) -> list[list[Raw]]:
    records: list[list[Raw]] = []
    row: list[Raw] = []
    i, n = 0, len(text)
    while i < n:
        value, i = _sql_value(text, i)
        row.append(value)
        if i >= n or text[i] == "\n":
            records.append(row)
            row = []
            i += 1
        elif text[i] == ",":
            i += 1
        elif text.startswith("\r\n", i):
            records.append(row)
            row = []
            i += 2
        else:
            raise OutputError(f"unexpected {text[i]!r} in `sqlite3` output at {i}")
    return records


_SQL_ATOM = re.compile(r"NULL|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|[Xx]'[0-9A-Fa-f]*'")


_REPLACE = re.compile(r"replace\(")
_CHAR = re.compile(r",\s*char\((\d+)\)\)")


def _sql_value(text: str, i: int) -> tuple[Raw, int]:
    if _REPLACE.match(text, i):  # newer sqlite3 writes a newline as replace('a\nb','\n',char(10))
        inner, j = _sql_value(text, i + len("replace("))
        if not text.startswith(",", j):
            raise OutputError("malformed replace() in `sqlite3` output")
        marker, j = _sql_value(text, j + 1)
        m = _CHAR.match(text, j)
        if inner is None or not marker or m is None:
            raise OutputError("malformed replace() in `sqlite3` output")
        return inner.replace(marker, chr(int(m[1]))), m.end()
    if text.startswith("'", i):
        out, j = [], i + 1
        while True:
            k = text.find("'", j)
            if k < 0:
                raise OutputError("unterminated text in `sqlite3` output")
            out.append(text[j:k])
            if text.startswith("''", k):
                out.append("'")
                j = k + 2
                continue
            return "".join(out), k + 1
    m = _SQL_ATOM.match(text, i)
    if m is None:
        raise OutputError(f"unexpected {text[i : i + 20]!r} in `sqlite3` output")
    atom = m.group()
    if atom == "NULL":
        return None, m.end()
    if atom[:2] in ("X'", "x'"):
        return bytes.fromhex(atom[2:-1]).decode("utf-8", "replace"), m.end()
    return atom, m.end()


# ------------------------------------------------------------------ ls -lRab
@dataclass(frozen=True)
class Entry:
    path: str
    name: str
    is_dir: bool
    size: int
    modified: str  # "YYYY-MM-DDTHH:MM" (ls shows minutes)


_LONG = re.compile(
    r"(?P<type>[-dlcbps])[-rwxsStT]{9}[.+@]?\s+\d+\s+\S+\s+\S+\s+"
    r"(?P<size>\d+|\d+,\s*\d+)\s+(?P<date>\d{4}-\d\d-\d\d) "
    r"(?P<time>\d\d:\d\d(?::\d\d)?)(?:\.\d+)?(?: [-+]\d{4})? (?P<name>.*)"
)


def unescape_name(text: str) -> str:
    r"""A name as `ls -b` writes it, decoded (``\n``, ``\t``, ``\\``, ``\ ``, ``\ooo`` octal
    bytes of UTF-8).

    >>> unescape_name(r"a\ b\nc\303\251")
    'a b\ncé'
    """
    out = bytearray()
    i = 0
    simple = {"n": b"\n", "t": b"\t", "r": b"\r", "\\": b"\\", " ": b" ", "a": b"\a"}
    simple.update({"b": b"\b", "f": b"\f", "v": b"\v", "e": b"\x1b", "'": b"'", '"': b'"'})
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if re.fullmatch(r"[0-7]{3}", text[i + 1 : i + 4]):
                out.append(int(text[i + 1 : i + 4], 8))
                i += 4
                continue
            if nxt in simple:
                out += simple[nxt]
                i += 2
                continue
        out += c.encode("utf-8", "surrogatepass")
        i += 1
    return out.decode("utf-8", "replace")


def parse_ls(text: str, root: str) -> list[Entry]:
    """Entries of `ls -lRab ROOT` (toybox): folder headers ``/path:``, ``total N`` lines,
    long-format lines; ``.``, ``..`` and links are left out. Times are minutes
    (``2026-05-14 09:02``), or seconds with `--full-time` (``2026-05-14 09:02:07.000000000
    +0100``: the fraction and the zone are dropped, the time is the phone's local time).

    A missing root (``No such file or directory``) is an empty listing.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    folder = root.rstrip("/") or "/"
    entries: list[Entry] = []
    for line in lines:
        if not line or line.startswith("total "):
            continue
        if "No such file or directory" in line:
            continue
        m = _LONG.fullmatch(line)
        if m is None:
            if line.endswith(":"):
                folder = unescape_name(line[:-1]).rstrip("/") or "/"
                continue
            raise OutputError(f"`ls -l` printed {line[:80]!r}")
        name = unescape_name(m["name"])
        if name in (".", "..") or m["type"] not in "-d":
            continue
        size = int(m["size"]) if m["size"].isdigit() else 0
        path = f"{folder}/{name}" if folder != "/" else f"/{name}"
        entries.append(Entry(path, name, m["type"] == "d", size, f"{m['date']}T{m['time']}"))
    return entries


# ------------------------------------------------------------------ dumpsys, date, dump
_FOCUS = [
    re.compile(r"mCurrentFocus=Window\{\S+ \S+ (?P<pkg>[\w.]+)/(?P<act>[\w.$]+)\}"),
    re.compile(r"mFocusedApp=\S*ActivityRecord\{\S+ \S+ (?P<pkg>[\w.]+)/(?P<act>[\w.$]+)"),
    re.compile(r"topResumedActivity=ActivityRecord\{\S+ \S+ (?P<pkg>[\w.]+)/(?P<act>[\w.$]+)"),
    re.compile(r"mResumedActivity: ActivityRecord\{\S+ \S+ (?P<pkg>[\w.]+)/(?P<act>[\w.$]+)"),
]


def parse_foreground(text: str) -> tuple[str, str]:
    """The focused package and activity from `dumpsys window` or `dumpsys activity
    activities`; an activity written ``.Main`` is expanded with the package.

    >>> parse_foreground("  mCurrentFocus=Window{5c2 u0 com.android.settings/.Settings}")
    ('com.android.settings', 'com.android.settings.Settings')
    """
    for pattern in _FOCUS:
        m = pattern.search(text)
        if m:
            pkg, act = m["pkg"], m["act"]
            return pkg, pkg + act if act.startswith(".") else act
    raise OutputError("no focused window or resumed activity in `dumpsys` output")


_DATE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")


def parse_date(text: str) -> str:
    """`date +%Y-%m-%dT%H:%M:%S` output.

    >>> parse_date("2026-05-14T08:30:00\\n")
    '2026-05-14T08:30:00'
    """
    value = text.strip()
    if not _DATE.fullmatch(value):
        raise OutputError(f"`date` printed {value[:40]!r}")
    return value


_MD5 = re.compile(r"([0-9a-fA-F]{32})[ \t]+[ *]?(.*)")


def parse_md5sum(text: str, path: str) -> str:
    """`md5sum PATH` output: the digest of the one file named (lower case).

    >>> parse_md5sum("0CC175B9C0F1B6A831C399E269772661  /sdcard/a b.jpg\\n", "/sdcard/a b.jpg")
    '0cc175b9c0f1b6a831c399e269772661'
    """
    lines = [line for line in text.splitlines() if line.strip()]
    m = _MD5.fullmatch(lines[0]) if len(lines) == 1 else None
    if m is None or m[2] != path:
        raise OutputError(f"`md5sum` printed {text.strip()[:80]!r} for {path[:80]!r}")
    return m[1].lower()


def check_dumped(text: str) -> None:
    """`uiautomator dump FILE` reports ``UI hierchary dumped to: FILE`` (sic) on success."""
    if "dumped to" not in text:
        raise OutputError(f"`uiautomator dump` failed: {text.strip()[:80]!r}")


# ------------------------------------------------------------------ dumpsys media_session
@dataclass(frozen=True)
class MediaSession:
    """One session record of `dumpsys media_session` (MediaSessionRecord.dump): its owner's
    package, its PlaybackState's state (None: the session has none), and its metadata as the
    session printed it (``size=N, description=TITLE, SUBTITLE, DESCRIPTION``). ``whole``:
    the metadata is the one line before the record's ``queueTitle=`` line, as the service
    prints it; where other lines come between, text the app gave (a title) holds a line
    break, and where that text ends cannot be told."""

    package: str
    state: int | None
    metadata: str
    whole: bool = True


@dataclass(frozen=True)
class MediaSessions:
    """The session records, and how many sessions the stacks' headers say they hold (``Sessions
    Stack - have N sessions:``, and the global priority session where there is one)."""

    sessions: list[MediaSession]
    listed: int


_SESSION_STATE = re.compile(r"PlaybackState \{state=(?P<state>-?\d+), ")
_STACK = re.compile(r"\s*Sessions Stack - have (?P<n>\d+) sessions:")
_GLOBAL = re.compile(r"Global priority session is (?P<session>.*)")


def parse_media_sessions(text: str) -> MediaSessions:
    """The session records in `dumpsys media_session` output, in the order printed.

    A record runs from its ``ownerPid=`` line to its ``queueTitle=`` line, with its
    ``package=``, ``state=`` and ``metadata: `` lines between. A record missing one of them,
    or output without the service's header, is output in no known form.

    >>> found = parse_media_sessions(
    ...     "MEDIA SESSION SERVICE (dumpsys media_session)\\n  Sessions Stack - have 1 sessions:\\n"
    ...     "    ownerPid=1, ownerUid=2, userId=0\\n      package=p\\n"
    ...     "      state=PlaybackState {state=3, position=0}\\n"
    ...     "      metadata: size=1, description=A, B, C\\n      queueTitle=null, size=0\\n")
    >>> found.sessions, found.listed
    ([MediaSession(package='p', state=3, metadata='size=1, description=A, B, C', whole=True)], 1)
    """
    if not text.startswith("MEDIA SESSION SERVICE"):
        raise OutputError(f"`dumpsys media_session` printed {text.strip()[:80]!r}")
    lines = text.split("\n")
    listed = 0
    for line in lines:
        stack, top = _STACK.fullmatch(line.rstrip("\r")), _GLOBAL.fullmatch(line.rstrip("\r"))
        if stack is not None:
            listed += int(stack["n"])
        elif top is not None and top["session"] != "null":
            listed += 1
    sessions = []
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith("ownerPid="):
            i += 1
            continue
        fields: dict[str, str] = {}
        extra = 0  # lines between the metadata and the queue's
        j = i + 1
        while j < len(lines) and not lines[j].lstrip().startswith("queueTitle="):
            line = lines[j].lstrip()
            if "metadata" in fields:
                extra += 1
            else:
                for name, lead in (("package", "package="), ("state", "state="),
                                   ("metadata", "metadata: ")):  # fmt: skip
                    if line.startswith(lead) and name not in fields:
                        fields[name] = line.removeprefix(lead).removesuffix("\r")
            j += 1
        if j >= len(lines) or set(fields) != {"package", "state", "metadata"}:
            raise OutputError(
                f"`dumpsys media_session`: the session record at line {i + 1} has no "
                "package=, state=, metadata: and queueTitle= lines"
            )
        sessions.append(MediaSession(fields["package"], _session_state(fields["state"]),
                                     fields["metadata"], whole=not extra))  # fmt: skip
        i = j + 1
    return MediaSessions(sessions, listed)


def _session_state(text: str) -> int | None:
    if text == "null":
        return None
    m = _SESSION_STATE.match(text)
    if m is None:
        raise OutputError(f"`dumpsys media_session`: a session's state={text[:60]!r}")
    return int(m["state"])
