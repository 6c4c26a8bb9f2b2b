"""Probe plans: the app models' `probe` declarations as device commands, and the world
snapshot their output makes (for the same verifier PhoneWorld's snapshots go to)."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
import json
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tasklang import ir
from tasklang.appmodel import MEDIA, PREFS_ENTRY, PREFS_RECORDS, prefs_entry_map
from tasklang.envs.device import bluetooth, mms, parse, wifi
from tasklang.envs.device.codec import (
    DATA_ROW,
    DELETED_FLAGS,
    ELSEWHERE,
    LINK,
    OPAQUE,
    PREFS_SET,
    Codec,
    DecodeError,
    FileDigest,
    NotKept,
    column_codec,
    setting_codec,
)
from tasklang.envs.device.screens import (
    AppProbe,
    ScreenSpec,
    SpotRead,
    resolve_names,
    screen_specs,
)
from tasklang.envs.device.services import SessionUnread, service_setting, session_value
from tasklang.envs.device.shell import Command, UnsafeValue, sql_name
from tasklang.envs.device.transport import CommandFailed
from tasklang.verifiers.evaluate import ranged
from tasklang.verifiers.probes import Coverage
from tasklang.verifiers.snapshot import AppState, Foreground, WorldSnapshot

DUMP_PATH = "/data/local/tmp/tasklang-window.xml"
DUMP = Command(("uiautomator", "dump", DUMP_PATH), "dump the UI hierarchy")
READ_DUMP = Command(("cat", DUMP_PATH), "read the UI hierarchy")
FOREGROUND = Command(("dumpsys", "window"), "read the focused app and activity")
# the ends of a datetime's range that say nothing (a record a screen does not list)
EARLIEST, LATEST = dt.datetime.min.isoformat(), dt.datetime.max.isoformat()
CLOCK = Command(("date", "+%Y-%m-%dT%H:%M:%S"), "read the phone's clock")
# the media store's rows for the files in shared storage (`"media COLUMN"` in a files probe):
# each file's row is told by its folder below shared storage and its name
MEDIA_URI = "content://media/external/file"
MEDIA_KEY = ("relative_path", "_display_name")
SHARED_STORAGE = ("/sdcard/", "/storage/emulated/0/")


@dataclass(frozen=True)
class Link:
    """A field kept in the rows of another table that point back at the record:
    ``SongEntity(playlist_creator_id = playlist_id).title`` is the `title` of each
    `SongEntity` row whose `playlist_creator_id` is the record's `playlist_id`, in the
    order the rows were written (a list; a single value is the first, and the field's
    default when there is none).

    Through a table of references, a second step looks each row up in a third table:
    ``caldav_tasks(cd_task = _id).caldav_lists(cdl_uuid = cd_calendar).cdl_name`` is the
    `cdl_name` of the `caldav_lists` row whose `cdl_uuid` is the `cd_calendar` of each
    `caldav_tasks` row pointing at the record (a reference to no row reads as nothing)."""

    table: str
    fk: str
    key: str
    value: str
    lookup: str | None = None  # the table the rows' references point into
    lookup_key: str | None = None  # its column they name
    ref: str | None = None  # the rows' column that holds the reference

    @classmethod
    def of(cls, column: str) -> Link | None:
        m = LINK.fullmatch(column)
        if m is None:
            return None
        return cls(m["table"], m["fk"], m["key"], m["value"], m["lookup"], m["lookup_key"],
                   m["ref"])  # fmt: skip

    @property
    def row_value(self) -> str:
        """The column of the pointing rows that holds the value, or the reference to it."""
        return self.ref or self.value

    def select(self, owner: str, alias: str) -> str:
        """The SQL expression that reads it, as a JSON array, from a row of ``owner``."""
        t, fk, key, value = (sql_name(n) for n in (self.table, self.fk, self.key, self.value))
        where = f"WHERE {t}.{fk} = {sql_name(owner)}.{key} ORDER BY {t}.rowid"
        if self.lookup is None:
            inner = f"SELECT {t}.{value} AS v FROM {t} {where}"
        else:
            lk, lkey, ref = (
                sql_name(n) for n in (self.lookup, self.lookup_key or "", self.ref or "")
            )
            inner = (
                f"SELECT {lk}.{value} AS v FROM {t} JOIN {lk} ON {lk}.{lkey} = {t}.{ref} {where}"
            )
        return f"(SELECT json_group_array(v) FROM ({inner})) AS {sql_name(alias)}"


@dataclass(frozen=True)
class Reference:
    """A field whose values name records of another collection of the app: a recipe's
    categories, a task's list. The app keeps it as rows pointing at those records, so it
    holds only names of records that exist; a single one with no record is the field's
    default."""

    coll: str
    field: str
    target: str  # the collection it names records of
    key: str  # the field of those records it names them by
    single: bool  # one name, not a list of them


def references(app: ir.AppModel) -> list[Reference]:
    """The references among an app's collections: fields a `sqlite` probe reads through a
    lookup table (:class:`Link`) that another probe of the same database reads a collection
    from.

    >>> from tasklang.compiler import Compiler, library_root
    >>> recipes = Compiler().compile_paths([library_root() / "apps"]).apps["recipes"]
    >>> [(r.coll, r.field, r.target, r.key, r.single) for r in references(recipes)]
    [('recipes', 'categories', 'categories', 'name', False)]
    """
    tables = {
        (p.path, p.table): p for p in app.probes if p.source == "sqlite" and p.table is not None
    }
    out = []
    for p in app.probes:
        rdef = app.record_of(p.target) if p.source == "sqlite" else None
        for name, column in p.columns.items():
            link = Link.of(column)
            fdef = rdef.field(name) if rdef else None
            other = tables.get((p.path, link.lookup)) if link and link.lookup else None
            if link is None or fdef is None or other is None:
                continue
            key = next((f for f, c in other.columns.items() if c == link.value), None)
            if key is not None and app.collection(other.target) is not None:
                out.append(Reference(p.target, name, other.target, key, fdef.type.name != "list"))
    return out


@dataclass(frozen=True)
class PrefsSet:
    """A boolean kept as whether the record is in a set of the app's shared preferences:
    ``Prefs.xml pinned_folders has path`` is whether the `pinned_folders` set of the app's
    `shared_prefs/Prefs.xml` holds the record's `path` column."""

    file: str
    key: str
    column: str

    @classmethod
    def of(cls, column: str) -> PrefsSet | None:
        m = PREFS_SET.fullmatch(column)
        return cls(m["file"], m["key"], m["column"]) if m else None

    def command(self, package: str) -> Command:
        path = f"/data/data/{package}/shared_prefs/{self.file}"
        return Command(
            ("run-as", package, "cat", path), f"read {package}'s preferences {self.file}"
        )


@dataclass(frozen=True)
class PrefsEntry:
    """A record's field kept in an entry of an app's shared preferences named by the record's
    id (a `prefs` probe of a collection, see ``appmodel.PREFS_ENTRY``):
    ``timer_time_left_{id} millis while state is paused or reset`` is the entry
    `timer_time_left_<id>`, a duration in milliseconds, the field's value only while the
    record's `state` is `paused` or `reset`; ``sw_lap_time_{id} millis since previous`` is
    that entry less the previous record's (0 before the first); ``{id}`` is the id itself."""

    key: str
    since: bool = False
    when: str | None = None
    among: tuple[str, ...] = ()
    default: bool = False
    stored_as: str | None = None  # the element its value is written as

    @classmethod
    @functools.cache
    def of(cls, column: str, field_type: str | None = None) -> PrefsEntry | None:
        m = PREFS_ENTRY.fullmatch(column)
        if m is None:
            return None
        among = tuple(m["among"].split(" or ")) if m["among"] else ()
        return cls(m["key"], bool(m["since"]), m["when"], among, bool(m["default"]),
                   _element(m["unit"], m["map"], field_type))  # fmt: skip

    @property
    def own_id(self) -> bool:
        return self.key == "{id}"

    def entry(self, rid: str) -> str:
        """The entry's key for the record ``rid``."""
        return self.key.replace("{id}", rid)


def _element(unit: str | None, values: str | None, field_type: str | None) -> str:
    """The element a field's entry is written as: `long` for a duration in a unit, `int`
    for an int or a map to numbers, `boolean` for a plain boolean, else `string`."""
    if unit:
        return "long"
    if values:
        numeric = all(s.lstrip("-").isdigit() for _, s in prefs_entry_map(values))
        return "int" if numeric else "string"
    return {"int": "int", "bool": "boolean"}.get(field_type or "", "string")


@dataclass(frozen=True)
class Elsewhere:
    """A boolean that is true exactly for the records another provider keeps: ``true in
    content://mms/sent`` is a text sent as MMS (the rows of the probe's own provider, the
    SMS sent box's, all have it false). Where that provider is an MMS box, a reading reads
    its texts too (:func:`records_elsewhere`). Anywhere else a reading only looks there for
    rows; while it finds any, the collection is not read (records it cannot give back),
    never guessed."""

    uri: str

    @classmethod
    def of(cls, column: str) -> Elsewhere | None:
        m = ELSEWHERE.fullmatch(column)
        return cls(m["uri"]) if m else None

    @property
    def read(self) -> bool:
        """Whether the records there are read too: an MMS box's texts are (see ``mms``)."""
        return mms.is_box(self.uri)

    def commands(self, app: str, target: str) -> list[Command]:
        """What a reading runs there: an MMS box's messages and their parts (and each
        message's numbers, by its id: see ``mms.read_box``); elsewhere, the rows' ids."""
        what = f"{app}.{target}"
        if self.read:
            return [mms.box_command(self.uri, what), mms.parts_command(what)]
        return [ids_command(self.uri, f"look for {what} kept in {self.uri}")]


def ids_command(uri: str, purpose: str) -> Command:
    """The ids of a provider's rows (`content query --projection _id`)."""
    return Command(("content", "query", "--uri", uri, "--projection", "_id"), purpose)


@dataclass(frozen=True)
class DataRow:
    """A value kept in a row of another provider that points back at the record: ``data1
    where mimetype = vnd.android.cursor.item/email_v2 in content://com.android.contacts/data by
    raw_contact_id`` is the `data1` of the contacts provider's data row of kind `email_v2`
    whose `raw_contact_id` is the record's own (its row read by the probe holds it too). With
    no such row the field holds its default; rows that hold different values cannot be read
    as the one value the field holds (see :class:`Ambiguous`).

    The rows may name the record by another column of its row: ``display_name where
    mimetype = vnd.android.cursor.item/group_membership in content://com.android.contacts/data
    by data1 = _id`` is the `display_name` of each membership row whose `data1` is the
    group row's `_id` (a list of texts: a row per item).

    With no kind of row, the record's column names one row of a provider of its own:
    ``address in content://mms-sms/canonical-addresses by _id = recipient_ids`` is the
    `address` of the canonical address whose `_id` the conversation's `recipient_ids` holds.
    Such a reference names exactly one row: one that names none (a conversation with several
    parties lists their ids, space-separated) cannot be read (see :class:`Ambiguous`)."""

    value: str
    conds: tuple[tuple[str, str], ...]  # (column, value): the rows' kind
    uri: str
    key: str  # the rows' column that points at the record
    look: Lookup | None = None  # where the rows' value names the field's value
    own: str | None = None  # the record row's column it points at (None: ``key`` as well)

    @classmethod
    def of(cls, column: str) -> DataRow | None:
        m = DATA_ROW.fullmatch(column)
        if m is None:
            return None
        conds = tuple(
            (name, value)
            for name, _, value in (c.split(" ", 2) for c in (m["conds"] or "").split(" and ") if c)
        )
        look = Lookup(m["look_value"], m["look_uri"], m["look_key"]) if m["look_uri"] else None
        return cls(m["value"], conds, m["uri"], m["key"], look, m["own"])

    @property
    def row_key(self) -> str:
        """The column of the record's own row that the rows point at."""
        return self.own or self.key

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns of the provider's rows it reads."""
        return tuple(dict.fromkeys((self.key, *(c for c, _ in self.conds), self.value)))

    def holds(self, row: dict[str, str | None]) -> bool:
        """Whether a row of the provider is of the kind that keeps the value."""
        return all(row.get(c) == v for c, v in self.conds)


@dataclass(frozen=True)
class Lookup:
    """The rows a :class:`DataRow`'s value refers into: ``then title in
    content://com.android.contacts/groups by _id`` is the `title` of the group row whose `_id`
    the membership row holds. A reference to no row, or to a row whose value the field has
    no value for (a group created in the app, which is no contact's standard group), is not
    the field's."""

    value: str
    uri: str
    key: str


class Ambiguous(ValueError):
    """A record whose rows elsewhere hold several values for a field that holds one (two
    e-mail addresses, where the model keeps one): the collection cannot be read."""


@dataclass(frozen=True)
class FieldMap:
    field: str
    column: str  # one column, several separated by `,` (an hour and its minutes), a link, a
    # set, or the other provider that keeps the records it is true for
    codec: Codec
    type_name: str | None = None  # the field's type (`duration`, `text`, ...)

    @property
    def prefs_entry(self) -> PrefsEntry | None:
        """For a field of a `prefs` probe of a collection, the entry that keeps it."""
        return PrefsEntry.of(self.column, self.type_name)

    @property
    def link(self) -> Link | None:
        return Link.of(self.column)

    @property
    def prefs_set(self) -> PrefsSet | None:
        return PrefsSet.of(self.column)

    @property
    def elsewhere(self) -> Elsewhere | None:
        return Elsewhere.of(self.column)

    @property
    def data_row(self) -> DataRow | None:
        return DataRow.of(self.column)

    @property
    def media(self) -> str | None:
        """For a field of a files probe kept by the media store, its column there."""
        m = MEDIA.fullmatch(self.column)
        return m[1] if m else None

    @property
    def parts(self) -> tuple[str, ...]:
        if self.link:
            return (self.column,)
        if self.elsewhere or self.data_row or self.media:
            return ()  # no column of the probe's rows holds it
        member = self.prefs_set
        return (member.column,) if member else tuple(self.column.split(","))

    @property
    def inner_links(self) -> list[Link]:
        """For a field read from several columns, those kept in the rows of another table
        (a WeChat message's `ImgInfo2(msglocalid = msgId).origImgMD5`): each read as a JSON
        array, as a field's :class:`Link` is."""
        if self.link is not None:
            return []
        return [link for p in self.parts if (link := Link.of(p)) is not None]

    @property
    def own_parts(self) -> tuple[str, ...]:
        """The columns of the probe's own rows that hold the field (its inner links aside)."""
        if self.link is not None:
            return self.parts
        return tuple(p for p in self.parts if Link.of(p) is None)


@dataclass(frozen=True)
class ProbeSpec(AppProbe):
    """One probe of one app that reads the phone's storage: how each field or the setting
    is kept there."""

    fields: tuple[FieldMap, ...] = ()
    codec: Codec | None = None
    default: Any = None  # a setting's value while the app has not stored one
    setting_type: ir.Type | None = None
    # rows whose column holds one of these values are the values another probe's field names
    # (the standard groups a contact's group is), not records: (column, stored values)
    named: tuple[tuple[str, frozenset[str]], ...] = ()
    # every column the app's probes read from each provider their fields are kept in (one
    # query per provider, whichever collection's fields it is for): (provider, columns)
    shared: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def prefs_key(self) -> str | None:
        """For a setting read from an app's shared preferences file (a `prefs` probe), the
        entry's key."""
        p = self.probe
        return p.key if self.kind == "setting" and p.source == "prefs" else None

    @property
    def prefs_records(self) -> bool:
        """Whether this probe reads a collection from an app's shared preferences, a record
        per id an entry names (see :class:`PrefsEntry`)."""
        return self.kind == "collection" and self.probe.source == "prefs"

    @property
    def rows_exact(self) -> bool:
        """Whether the rows read are the records. Folders under shared storage are not: a
        phone lists every folder there (the system's own too), which a model's folder
        records need not name. Inside an app's own folder (a notebook) they are: setup
        rebuilds it from the records, and the app keeps a record for every folder in it."""
        p = self.probe
        if p.source != "files" or not (p.path or "").endswith("/"):
            return True
        return own_folder(files_root(p.path or ""))

    @property
    def columns(self) -> list[str]:
        """The record's own columns read, each once (several fields may read one column).
        Fields kept in other tables (`links`) are not among them, but the key their rows
        point at is: setup saves it and the tear-down puts it back, so the phone's own
        linked rows find their record again. A list setting kept as rows reads the one
        column of its items (see ``codec.row_list``)."""
        if self.kind == "setting":
            return list(self.probe.columns.values()) if self.probe.source == "sqlite" else []
        out: list[str] = []
        for f in self.fields:
            if f.link is None:
                out += [c for c in f.own_parts if c not in out]
        for link in self.all_links:
            if link.key not in out:
                out.append(link.key)
        for f in self.data_rows:
            if f.data_row is not None and f.data_row.row_key not in out:
                out.append(f.data_row.row_key)
        flag = self.deleted_flag
        if flag is not None and flag not in out:
            out.append(flag)
        return out

    @property
    def row_column(self) -> str:
        """For a list setting kept as rows (see ``codec.row_list``), the column of its items."""
        return self.columns[0] if self.kind == "setting" and self.columns else ""

    @property
    def provided(self) -> list[str]:
        """The columns the provider itself gives, read but never written by setup or the
        tear-down: the id other providers' rows name a record by (a group's `_id`: a
        deleted group's row keeps its id, which a new row cannot take), the id a set of
        the app's preferences names a record by (a pinned conversation's thread `_id`: see
        :attr:`set_ids`), and the mark of a deleted row (see :attr:`deleted_flag`)."""
        own = [f.data_row.own for f in self.data_rows if f.data_row is not None]
        ids = [*(c for c in own if c), *self.set_ids, *filter(None, [self.deleted_flag])]
        return list(dict.fromkeys(ids))

    @property
    def set_ids(self) -> list[str]:
        """The columns of a provider's rows that sets of the app's preferences name records
        by and that no field is kept in: ids the provider gives its rows (a thread's `_id`)."""
        if self.kind != "collection" or self.probe.source != "content":
            return []
        held = {c for f in self.fields if not (f.link or f.prefs_set or f.elsewhere
                                                   or f.data_row) for c in f.parts}  # fmt: skip
        named = [f.prefs_set.column for f in self.prefs_sets if f.prefs_set is not None]
        return list(dict.fromkeys(c for c in named if c not in held))

    @property
    def deleted_flag(self) -> str | None:
        """The column that marks a deleted row of the probe's provider (``DELETED_FLAGS``)."""
        p = self.probe
        return DELETED_FLAGS.get(p.uri or "") if p.source == "content" else None

    @property
    def data_rows(self) -> list[FieldMap]:
        """The fields kept in rows of another provider (see :class:`DataRow`)."""
        if self.kind != "collection" or self.probe.source != "content":
            return []
        return [f for f in self.fields if f.data_row is not None and f.codec.exact]

    def data_commands(self) -> list[Command]:
        """The commands that read the rows of other providers the fields are kept in: one
        per provider, with every column any of the app's fields reads there."""
        shared = dict(self.shared)
        return [
            Command(("content", "query", "--uri", uri, "--projection",
                     ":".join(shared.get(uri) or cols)),
                    f"read {self.app}: the rows of {uri}")
            for uri, cols in self.data_columns().items()
        ]  # fmt: skip

    def data_columns(self) -> dict[str, list[str]]:
        """The columns the fields read from each other provider (the rows they are kept in,
        and those their values name)."""
        columns: dict[str, list[str]] = {}
        for f in self.data_rows:
            row = f.data_row
            if row is not None:
                have = columns.setdefault(row.uri, [])
                have += [c for c in row.columns if c not in have]
            if row is not None and row.look is not None:
                have = columns.setdefault(row.look.uri, [])
                have += [c for c in (row.look.key, row.look.value) if c not in have]
        return columns

    def named_rows(self) -> list[dict[str, str | None]]:
        """The rows setup writes besides the records: the values other probes' fields name."""
        return [{column: v} for column, values in self.named for v in sorted(values)]

    def is_named(self, row: dict[str, str | None]) -> bool:
        """Whether a row read is one of :meth:`named_rows`, not a record."""
        return any(
            (row.get(column) or "").casefold() in {v.casefold() for v in values}
            for column, values in self.named
        )

    @property
    def media_fields(self) -> list[FieldMap]:
        """The fields of a files probe the media store keeps (``"media COLUMN"``)."""
        if self.kind != "collection" or self.probe.source != "files":
            return []
        return [f for f in self.fields if f.media is not None and f.codec.exact]

    def media_command(self) -> Command | None:
        """The command that reads the media store's rows for the fields it keeps."""
        columns = [f.media for f in self.media_fields if f.media is not None]
        if not columns:
            return None
        projection = ":".join(dict.fromkeys([*MEDIA_KEY, *sorted(columns)]))
        return Command(("content", "query", "--uri", MEDIA_URI, "--projection", projection),
                       f"read {self.app}.{self.target}: the media store's rows")  # fmt: skip

    @property
    def prefs_sets(self) -> list[FieldMap]:
        """The fields kept as a set of the app's shared preferences (see :class:`PrefsSet`)."""
        return [f for f in self.fields if f.prefs_set is not None]

    @property
    def elsewhere(self) -> list[FieldMap]:
        """The fields true for the records another provider keeps (see :class:`Elsewhere`)."""
        return (
            [f for f in self.fields if f.elsewhere is not None] if self.kind == "collection" else []
        )

    @property
    def links(self) -> list[FieldMap]:
        """The fields kept in the rows of another table (see :class:`Link`)."""
        return (
            [f for f in self.fields if f.link is not None] if self.probe.source == "sqlite" else []
        )

    @property
    def all_links(self) -> list[Link]:
        """Every link the probe reads: the fields kept in another table's rows, and the
        columns of such a table among a field's (:attr:`FieldMap.inner_links`)."""
        if self.probe.source != "sqlite":
            return []
        out = [f.link for f in self.links if f.link is not None]
        return out + [link for f in self.fields for link in f.inner_links if link not in out]

    def command(self) -> Command | None:
        """The command that reads this probe's state (None: it reads the UI dump)."""
        p = self.probe
        what = f"read {self.app}.{self.target}"
        if p.source == "content":
            for col in self.columns:
                if ":" in col:
                    raise UnsafeValue(f"column `{col}` cannot be projected (it holds `:`)")
            argv = ["content", "query", "--uri", p.uri or ""]
            if self.columns:
                argv += ["--projection", ":".join(self.columns)]
            return Command(tuple(argv), what, meta={"probe": self})
        if p.source == "setting":
            service = service_setting(p.namespace, p.key) or session_value(p.namespace, p.key)
            key = (
                service.get()
                if service
                else ("settings", "get", p.namespace or "system", p.key or "")
            )
            return Command(key, what, meta={"probe": self})
        if p.source == "sqlite" and self.kind == "setting":
            return Command(
                ("run-as", self.package, "sqlite3", "-header", "-quote", p.path or "",
                 row_list_sql(p.table or "", self.row_column)),
                what,
                meta={"probe": self},
            )  # fmt: skip
        if p.source == "sqlite":
            return Command(
                ("run-as", self.package, "sqlite3", "-header", "-quote", p.path or "",
                 select_sql(p.table or "", self.columns, self.link_columns)),
                what,
                meta={"probe": self},
            )  # fmt: skip
        if p.source == "prefs":  # the app's own file: read as the app
            if not (p.path or "").startswith("/"):
                raise UnsafeValue(f"prefs probe `{p.path}` is not an absolute path")
            return Command(
                ("run-as", self.package, "cat", p.path or ""),
                f"read {self.app}'s preferences {posixpath.basename(p.path or '')}",
                meta={"probe": self},
            )
        if p.source == "files":
            root = files_root(p.path or "")
            if not root.startswith("/"):
                raise UnsafeValue(f"files probe `{p.path}` is not an absolute path")
            return Command(("ls", "-lRab", "--full-time", root), what, meta={"probe": self})
        if p.source == "service" and p.namespace == "bluetooth_manager":
            return Command(bluetooth.DUMP, f"{what}: the bonded Bluetooth devices",
                           meta={"probe": self})  # fmt: skip
        if p.source == "service":
            return Command(wifi.LIST, f"{what}: the saved Wi-Fi networks", meta={"probe": self})
        return None

    @property
    def link_columns(self) -> list[str]:
        """The columns a query reads through links (:attr:`all_links`), as the fields name them."""
        named = [f.column for f in self.links]
        return named + [p for f in self.fields for p in f.parts
                        if p not in named and Link.of(p) in f.inner_links]  # fmt: skip

    def status_command(self) -> Command | None:
        """For a `service` probe, the command that says which record is connected."""
        if self.probe.source != "service" or self.probe.namespace != "wifi":
            return None
        return Command(wifi.STATUS, f"read {self.app}.{self.target}: the Wi-Fi connection")


def select_sql(table: str, columns: list[str], links: list[str] | None = None) -> str:
    picked = [sql_name(c) for c in columns]
    for column in links or []:
        link = Link.of(column)
        if link is not None:
            picked.append(link.select(table, column))
    return f"SELECT {', '.join(picked) or '*'} FROM {sql_name(table)};"


def row_list_sql(table: str, column: str) -> str:
    """The query that reads a list kept as rows (see ``codec.row_list``): one cell, the
    column's values as a JSON array in the order the rows were inserted.

    >>> row_list_sql("playing_queue", "title")
    'SELECT json_group_array(v) AS "title" FROM (SELECT "title" AS v FROM "playing_queue" ORDER BY rowid);'
    """
    col, t = sql_name(column), sql_name(table)
    return f"SELECT json_group_array(v) AS {col} FROM (SELECT {col} AS v FROM {t} ORDER BY rowid);"


def files_root(pattern: str) -> str:
    """The folder a files probe lists: the pattern up to its first wildcard.

    >>> files_root("/sdcard/Documents/Markor/**/*"), files_root("/sdcard/DCIM/Camera/*")
    ('/sdcard/Documents/Markor', '/sdcard/DCIM/Camera')
    """
    parts = []
    for part in pattern.split("/"):
        if any(c in part for c in "*?["):
            break
        parts.append(part)
    return posixpath.normpath("/".join(parts) or "/")


def own_folder(root: str) -> bool:
    """Whether a files probe's root is an app's own folder (`/sdcard/Documents/Markor`),
    which setup moves aside and rebuilds, rather than shared storage (`/sdcard`, the
    camera's `/sdcard/DCIM/...`) that other apps write to as well.

    >>> own_folder("/sdcard/Documents/Markor"), own_folder("/sdcard"), own_folder("/sdcard/DCIM/Camera")
    (True, False, False)
    """
    root = posixpath.normpath(root)
    return root.count("/") >= 3 and not root.startswith("/sdcard/DCIM")


def folder_below(root: str, path: str) -> str:
    """The folder that holds ``path``, relative to ``root`` ("" directly in it).

    >>> folder_below("/sdcard/Documents/Markor", "/sdcard/Documents/Markor/Work/a.md")
    'Work'
    """
    rel = posixpath.relpath(posixpath.dirname(posixpath.normpath(path)), root)
    return "" if rel == "." else rel


def top_folder_below(root: str, path: str) -> str:
    """The folder directly in ``root`` that holds ``path`` ("" directly in the root).

    >>> top_folder_below("/sdcard", "/sdcard/Download/Work/a.pdf")
    'Download'
    >>> top_folder_below("/sdcard", "/sdcard/a.pdf")
    ''
    """
    return folder_below(root, path).split("/")[0]


def files_match(pattern: str, entry: parse.Entry) -> bool:
    """Whether a listed entry is one of the probe's records: ``**/`` folders, else files;
    ``**`` anywhere below the root, a single ``*`` only directly in it."""
    root = files_root(pattern)
    if entry.is_dir != pattern.endswith("/"):
        return False
    if not entry.path.startswith(root.rstrip("/") + "/"):
        return False
    if "**" in pattern:
        return True
    return posixpath.dirname(entry.path) == root


def probe_specs(compiled: ir.CompiledTask, initial: WorldSnapshot | None = None) -> list[ProbeSpec]:
    """Every probe of the task's apps whose target is a collection or a setting.

    With the instance's ``initial`` world, a files probe's `name` counts as read exactly
    only when the records name each file by its file name (some apps keep a title without
    the extension there, which a listing cannot give).
    """
    specs = []
    for name in sorted(compiled.apps):
        app = compiled.apps[name]
        for p in app.probes:
            if p.source in ("ui", "screen"):  # screens: see `screens.screen_specs`
                continue
            if app.collection(p.target) is not None:
                rdef = app.record_of(p.target)
                maps = tuple(
                    FieldMap(f, col, column_codec(p, fdef, col), fdef.type.name if fdef else None)
                    for f, col in p.columns.items()
                    for fdef in [rdef.field(f) if rdef else None]
                )
                if p.source == "files" and initial is not None:
                    records = collection_records(initial, name, p.target)
                    maps = _named_as_listed(maps, records, files_root(p.path or ""))
                specs.append(ProbeSpec(name, app.package, p, "collection", maps))
            elif app.setting(p.target) is not None:
                fdef = app.setting(p.target)
                specs.append(ProbeSpec(name, app.package, p, "setting", codec=setting_codec(p, fdef),
                                       default=fdef.default if fdef else None,
                                       setting_type=fdef.type if fdef else None))  # fmt: skip
    return _shared(_with_named(specs, compiled))


def named_values(spec: ProbeSpec, app: ir.AppModel) -> dict[tuple[str, str], frozenset[str]]:
    """The rows a probe's fields name by a :class:`Lookup` (a contact's standard group, by
    title): (provider, column) -> every value the field can name there."""
    rdef = app.record_of(spec.target)
    out: dict[tuple[str, str], frozenset[str]] = {}
    for f in spec.data_rows:
        look = f.data_row.look if f.data_row is not None else None
        fdef = rdef.field(f.field) if rdef else None
        if look is None or fdef is None:
            continue
        stored = {f.codec.encode(m) for m in fdef.type.members or ()}
        have = out.get((look.uri, look.value), frozenset())
        out[(look.uri, look.value)] = have | {v for v in stored if v is not None}
    return out


def _with_named(specs: list[ProbeSpec], compiled: ir.CompiledTask) -> list[ProbeSpec]:
    """The specs, each collection read from a provider whose rows other fields name knowing
    which rows those are (see :attr:`ProbeSpec.named`)."""
    named: dict[tuple[str, str, str], frozenset[str]] = {}
    for s in specs:
        for (uri, column), values in named_values(s, compiled.apps[s.app]).items():
            named[(s.app, uri, column)] = named.get((s.app, uri, column), frozenset()) | values
    out = []
    for s in specs:
        mine = tuple(
            (column, values)
            for (app, uri, column), values in sorted(named.items(), key=lambda kv: kv[0])
            if app == s.app and uri == s.probe.uri and s.kind == "collection"
        )
        out.append(dataclasses.replace(s, named=mine) if mine else s)
    return out


def _shared(specs: list[ProbeSpec]) -> list[ProbeSpec]:
    """The specs, each knowing every column its app's probes read from the providers its
    fields are kept in (see :attr:`ProbeSpec.shared`)."""
    columns: dict[tuple[str, str], list[str]] = {}
    for s in specs:
        for uri, cols in s.data_columns().items():
            have = columns.setdefault((s.app, uri), [])
            have += [c for c in cols if c not in have]
    out = []
    for s in specs:
        mine = tuple((uri, tuple(columns[(s.app, uri)])) for uri in s.data_columns())
        out.append(dataclasses.replace(s, shared=mine) if mine else s)
    return out


def collection_records(world: WorldSnapshot, app: str, target: str) -> list[dict[str, Any]]:
    """The records of ``app.target`` in ``world`` (none where it holds no such state)."""
    state = world.apps.get(app)
    return state.collections.get(target, []) if state else []


def _named_as_listed(
    maps: tuple[FieldMap, ...], records: list[dict[str, Any]], root: str
) -> tuple[FieldMap, ...]:
    """The field maps, with `name`, `folder` and `size` opaque where the records do not say
    what a listing shows (a title for a file name; a folder not named by its place below
    the root; a size other than the text's; a kind its extension does not say)."""

    def listed(fm: FieldMap) -> bool:
        if not fm.codec.exact:
            return True
        if fm.column in ("name", "stem"):
            return all(
                fm.codec.decode(_listed_name(fm.column, r)) == r.get(fm.field) for r in records
            )
        if fm.column in ("folder", "top_folder"):
            where = folder_below if fm.column == "folder" else top_folder_below
            return all(r.get(fm.field) == where(root, str(r.get("path"))) for r in records)
        if fm.column == "size":
            return all(r.get(fm.field) == _text_size(r, fm.field) for r in records)
        return True

    return tuple(fm if listed(fm) else FieldMap(fm.field, fm.column, OPAQUE) for fm in maps)


def _listed_name(column: str, record: dict[str, Any]) -> str:
    """The `name` (or `stem`, without the extension) a listing shows for a record's file."""
    name = posixpath.basename(str(record.get("path")))
    return posixpath.splitext(name)[0] if column == "stem" else name


def _text_size(record: dict[str, Any], field: str) -> Any:
    """The size a file written from the record has (its text's, when setup writes text)."""
    content, size = record.get("content"), record.get(field)
    if isinstance(content, str) and (content or not isinstance(size, int)):
        return len(content.encode("utf-8", "surrogatepass"))
    return size


def coverage(
    compiled: ir.CompiledTask,
    specs: list[ProbeSpec] | None = None,
    initial: WorldSnapshot | None = None,
) -> Coverage:
    """What the probes read exactly (see ``tasklang.verifiers.probes``)."""
    specs = probe_specs(compiled, initial) if specs is None else specs
    fields: dict[tuple[str, str], frozenset[str]] = {}
    settings: set[tuple[str, str]] = set()
    for s in specs:
        if s.kind == "setting" and s.codec is not None and s.codec.exact:
            settings.add(s.key)
        elif s.kind == "collection" and s.rows_exact:
            fields[s.key] = frozenset(f.field for f in s.fields if f.codec.exact)
    partly: set[tuple[str, str, str]] = set()
    at_end = screen_coverage(compiled, fields, settings, partly)
    cov = Coverage.of(compiled, fields, settings, at_end).partly_read(partly)
    unlisted = {s.key: service_unlisted(s) for s in specs if s.probe.source == "service"}
    for name, app in compiled.apps.items():  # until a reading says when it was read
        for p in app.probes:
            if p.upcoming is not None and (name, p.target) in at_end:
                unlisted[(name, p.target)] = {ranged(p.upcoming): {"from": EARLIEST, "to": LATEST}}
    return cov.listed_in_part(unlisted)


def screen_coverage(
    compiled: ir.CompiledTask,
    fields: dict[tuple[str, str], frozenset[str]],
    settings: set[tuple[str, str]],
    partly: set[tuple[str, str, str]] | None = None,
) -> set[tuple[str, str]]:
    """Adds what the `screen` probes read (every field they map: a screen shows a value or
    the reading fails; a field with an ``unknown`` form, or one that stands for several
    values, only on the rows that show its value, which goes in ``partly`` as well) and
    returns their targets: state read only after the episode. (A datetime a reading finds
    shown only to the minute is read in part for that episode: ``check.shown_as_ranges``.)"""
    at_end = set()
    stored = dict(fields)
    for s in screen_specs(compiled):
        if s.key in fields or s.key in settings:
            continue  # read from storage already
        at_end.add(s.key)
        if s.kind == "setting":
            settings.add(s.key)
            continue
        reads = [r for r in (*s.reads, *s.details, *s.group_reads) if _names_read(r, s.app, stored)]
        fields[s.key] = frozenset(r.name for r in reads)
        if partly is not None:
            partly |= {(s.app, s.target, r.name) for r in reads
                       if r.spot.names is not None
                       or any(f.unknown or f.among for f in r.spot.forms)}  # fmt: skip
    return at_end


def _names_read(read: SpotRead, app: str, stored: dict[tuple[str, str], frozenset[str]]) -> bool:
    """Whether what the spot reads is known from what it shows: a name (``names``) is, where
    the probes read the named collection's keys and the fields its names are in exactly; it
    reads one record's key, or one of several, or nothing (so only in part)."""
    names = read.spot.names
    if names is None:
        return True
    return read.named_key is not None and {read.named_key, *names.by} <= stored.get(
        (app, names.collection), frozenset()
    )


def probe_commands(compiled: ir.CompiledTask) -> list[Command]:
    """The static probe plan: one command per probe (a file several settings are read
    from, once), then the clock, foreground and UI."""
    specs = [s for s in probe_specs(compiled) if s.rows_exact]
    out: dict[tuple[str, ...], Command] = {}
    for spec in specs:
        cmds = [spec.command(), *(f.prefs_set.command(spec.package) for f in spec.prefs_sets
                                  if f.prefs_set is not None)]  # fmt: skip
        cmds += [c for f in spec.elsewhere if f.elsewhere is not None and f.codec.exact
                 for c in f.elsewhere.commands(spec.app, spec.target)]  # fmt: skip
        cmds += [*spec.data_commands(), spec.media_command(), spec.status_command()]
        for cmd in cmds:
            if cmd is not None:
                out.setdefault(cmd.argv, cmd)
    return [*out.values(), CLOCK, FOREGROUND, DUMP, READ_DUMP]


# ------------------------------------------------------------------ reading a phone
Shell = Callable[[tuple[str, ...]], str]


Listed = dict[tuple[str, str], frozenset[str]]  # (app, collection) -> the paths listed


@dataclass
class Reading:
    """What one run of the probe plan read (``unread``: screen probes that could not read
    their page, and why)."""

    snapshot: WorldSnapshot
    unread: dict[tuple[str, str], str] = field(default_factory=dict)
    # the folders a listing whose rows are not the records holds (see `listing_specs`)
    listed: Listed = field(default_factory=dict)
    # collections a screen lists only in part (`upcoming`), and what each record it does
    # not list is known to hold (see ``Coverage.listed_in_part``)
    unlisted: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)


def read_world(
    compiled: ir.CompiledTask,
    run: Shell,
    tz: str | None = None,
    initial: WorldSnapshot | None = None,
    screens: bool = False,
    sleep: Callable[[float], None] | None = None,
) -> Reading:
    """Run the probe plan through ``run`` (argv -> output) and build the world snapshot.

    Output in no known form, or a value that does not fit its field, raises
    ``parse.OutputError``: a checker must not judge state it could not read. With
    ``screens`` the `screen` probes run last (after the final UI is read: they open the apps
    again); one that cannot read its page leaves its state out, in ``Reading.unread``, and
    so does a collection whose records are partly kept where no probe reads them (see
    :class:`Elsewhere`).
    """
    snap = WorldSnapshot(tz=tz or _tz(compiled))
    reading = Reading(snap)
    prefs: dict[tuple[str, ...], dict[str, str | None]] = {}  # each file read once
    specs = probe_specs(compiled, initial)
    shared = _once(run, {c.argv for s in specs
                         for c in [*s.data_commands(), s.media_command()] if c is not None})  # fmt: skip
    listings = listing_specs(compiled, specs)
    # a folder listed for several probes (the documents and the folders of `/sdcard`), once
    ls = _once(run, {c.argv for s in specs if s.probe.source == "files" for c in [s.command()]
                     if c is not None})  # fmt: skip
    for spec in specs:
        cmd = spec.command()
        if cmd is not None and spec in listings:
            reading.listed[spec.key] = listed_paths(spec, ls)
        if cmd is None or not spec.rows_exact:
            continue
        state = snap.apps.setdefault(spec.app, AppState())
        if spec.kind == "setting":
            assert spec.codec is not None
            if not spec.codec.exact:
                continue
            if spec.prefs_key is not None:
                if cmd.argv not in prefs:
                    prefs[cmd.argv] = _prefs_entries(run, cmd.argv, spec)
                raw = prefs[cmd.argv].get(spec.prefs_key)
                value = spec.default if raw is None else _decode(spec.codec, raw, spec)
            elif spec.probe.source == "sqlite":
                value = _decode(spec.codec, _row_list_raw(spec, run, cmd.argv), spec)
            else:
                try:
                    value = _decode(spec.codec, setting_raw(spec, run(cmd.argv)), spec)
                except SessionUnread as exc:
                    reading.unread[spec.key] = str(exc)
                    continue
            state.settings[spec.target] = value
            continue
        if spec.prefs_records:
            if cmd.argv not in prefs:
                prefs[cmd.argv] = _prefs_entries(run, cmd.argv, spec)
            try:
                state.collections[spec.target] = prefs_records(spec, prefs[cmd.argv])
            except parse.Unread as exc:
                reading.unread[spec.key] = str(exc)
            continue
        why = _kept_elsewhere(spec, run)
        if why is not None:
            reading.unread[spec.key] = why
            continue
        out = _listing(ls, cmd.argv) if spec.probe.source == "files" else run(cmd.argv)
        try:
            records = records_of(spec, out, shared)
            records += records_elsewhere(spec, run)
        except (Ambiguous, wifi.Unlisted, parse.Unread) as exc:
            reading.unread[spec.key] = str(exc)
        else:
            state.collections[spec.target] = records
    name_by_digest(snap, run)
    snap.clock = parse.parse_date(run(CLOCK.argv))
    pkg, act = parse.parse_foreground(run(FOREGROUND.argv))
    snap.foreground = Foreground(package=pkg, activity=act)
    parse.check_dumped(run(DUMP.argv))
    snap.ui_xml = run(READ_DUMP.argv)
    if screens:
        _read_screens(screen_specs(compiled), run, reading, sleep)
    return reading


def digest_command(path: str) -> Command:
    """The command that reads the MD5 of a file's content (the path one argument)."""
    return Command(("md5sum", path), f"read the digest of {posixpath.basename(path)}")


def named_paths(snap: WorldSnapshot) -> set[str]:
    """The files the records of ``snap`` name by their `path` (absolute ones)."""
    return {
        rec["path"] for state in snap.apps.values() for recs in state.collections.values()
        for rec in recs if isinstance(rec.get("path"), str) and rec["path"].startswith("/")
    }  # fmt: skip


def name_by_digest(snap: WorldSnapshot, run: Shell) -> None:
    """Name each field ``snap`` read as a file's digest (:class:`codec.FileDigest`: the
    original of a WeChat image) by the files its records name (their `path`): the one file
    name among those whose content has that digest (`md5sum`, each file once). A digest no
    such file has, or files of several names have, leaves the field out of its record: it is
    read only in the records that hold it, never guessed."""
    pending = [(rec, name) for state in snap.apps.values() for recs in state.collections.values()
               for rec in recs for name, v in rec.items() if isinstance(v, FileDigest)]  # fmt: skip
    if not pending:
        return
    names: dict[str, set[str]] = {}
    for path in sorted(named_paths(snap)):
        try:
            md5 = parse.parse_md5sum(run(digest_command(path).argv), path)
        except (CommandFailed, parse.OutputError):  # a file the phone does not have (now)
            continue
        names.setdefault(md5, set()).add(posixpath.basename(path))
    for rec, name in pending:
        found = names.get(rec[name].md5, set())
        if len(found) == 1:
            rec[name] = next(iter(found))
        else:
            del rec[name]


def _once(run: Shell, argvs: set[tuple[str, ...]]) -> Shell:
    """``run``, each of ``argvs`` run once in a reading (a provider the fields of several
    collections are kept in)."""
    seen: dict[tuple[str, ...], str] = {}

    def once(argv: tuple[str, ...]) -> str:
        if argv not in argvs:
            return run(argv)
        if argv not in seen:
            seen[argv] = run(argv)
        return seen[argv]

    return once


def setting_raw(spec: ProbeSpec, out: str) -> str | None:
    """A setting's raw value in what its probe command printed (`settings get`, or a
    service's own command: see ``services``)."""
    session = session_value(spec.probe.namespace, spec.probe.key)
    if session is not None:  # raises SessionUnread where the session does not tell it
        try:
            return session.read(out, spec.package)
        except parse.OutputError as exc:
            raise parse.OutputError(f"{spec.app}.{spec.target}: {exc}") from None
    service = service_setting(spec.probe.namespace, spec.probe.key)
    if service is None:
        return parse.parse_setting(out)
    try:
        return service.parse(out)
    except parse.OutputError as exc:
        raise parse.OutputError(f"{spec.app}.{spec.target}: {exc}") from None


def _row_list_raw(spec: ProbeSpec, run: Shell, argv: tuple[str, ...]) -> str | None:
    """The JSON array a list kept as rows reads as (see ``row_list_sql``). A table the app
    has not made yet (it never saved the list) holds none: the list is empty."""
    from tasklang.envs.device.transport import CommandFailed

    try:
        out = run(argv)
    except CommandFailed as exc:
        if f"no such table: {spec.probe.table}" in exc.output:
            return None
        raise
    rows = parse.parse_sqlite_quote(out)
    column = spec.row_column
    if len(rows) != 1 or column not in rows[0]:
        raise parse.OutputError(
            f"{spec.app}.{spec.target}: expected one row of `{column}` from `sqlite3`, "
            f"read {len(rows)}"
        )
    return rows[0][column]


def _kept_elsewhere(spec: ProbeSpec, run: Shell) -> str | None:
    """Why the collection cannot be read: records of it kept where the probe does not read
    (None: there are none)."""
    for fm in spec.elsewhere:
        where = fm.elsewhere
        if where is None or not fm.codec.exact or where.read:
            continue
        [look] = where.commands(spec.app, spec.target)
        found = parse.parse_content_rows(run(look.argv), ["_id"])
        if found:
            return f"{len(found)} of its records are kept in {where.uri}, which is not read"
    return None


def records_elsewhere(spec: ProbeSpec, run: Shell) -> list[dict[str, Any]]:
    """The records of a collection another provider keeps and the probe reads too (the
    texts an MMS box keeps: see ``mms``), the field that says so true in them. A field the
    other provider keeps in no column the probe maps is left out of them: it is read only
    in the records that keep it (``check.not_kept``)."""
    out = []
    for fm in spec.elsewhere:
        where = fm.elsewhere
        if where is None or not fm.codec.exact or not where.read:
            continue
        for row in mms.read_box(where.uri, run, f"{spec.app}.{spec.target}"):
            rec: dict[str, Any] = {}
            for other in spec.fields:
                if not other.codec.exact:
                    continue
                if other.elsewhere is not None:
                    raw: str | None = "1" if other is fm else "0"
                elif len(other.parts) == 1 and other.column in row and _own_column(other):
                    raw = row[other.column]
                else:
                    continue
                with contextlib.suppress(NotKept):
                    rec[other.field] = _decode(other.codec, raw, spec)
            out.append(rec)
    return out


def _own_column(fm: FieldMap) -> bool:
    """Whether the field is a column of the probe's own rows (not a link, a set, a row of
    another provider, the media store's)."""
    return not (fm.link or fm.prefs_set or fm.data_row or fm.media)


def listing_specs(compiled: ir.CompiledTask, specs: list[ProbeSpec]) -> list[ProbeSpec]:
    """The probes of folders under shared storage, whose listing holds the system's folders
    too, so its rows are not the records (:attr:`ProbeSpec.rows_exact`), and whose records'
    fields but the key never change under one key (``changes C.F nowhere``: a folder's name
    and parent follow from its path). Such a listing still shows every change to them: each
    record is a folder there under its path, so a folder added, removed or renamed changes
    the listing. A listing before the episode and one after it that hold the same folders
    prove the records the same at the end as at the start (not along the way: a folder made
    and removed again leaves both alike)."""
    from tasklang.verifiers.bracket import fixed_fields

    out = []
    for s in specs:
        if s.kind != "collection" or s.probe.source != "files" or s.rows_exact:
            continue
        rdef = compiled.apps[s.app].record_of(s.target)
        if rdef is None or rdef.key_field() is None:
            continue
        rest = {f.name for f in rdef.fields if not f.key}
        if rest <= fixed_fields(compiled, ir.CollectionRef(app=s.app, name=s.target)):
            out.append(s)
    return out


def listed_paths(spec: ProbeSpec, run: Shell) -> frozenset[str]:
    """The paths of the folders (or files) a listing probe matches, every one the phone has."""
    cmd = spec.command()
    assert cmd is not None
    pattern = spec.probe.path or ""
    entries = parse.parse_ls(_listing(run, cmd.argv), files_root(pattern))
    return frozenset(e.path for e in entries if files_match(pattern, e))


def needs_start(compiled: ir.CompiledTask) -> bool:
    """Whether a reading before the episode can decide a clause (see :func:`read_start`):
    a change event on state only screens show, a guard on a collection a listing shows (see
    :func:`listing_specs`), a field no page shows that may be read as its default (see
    :func:`defaults_read`), or a collection a system service keeps (:func:`carried_specs`)."""
    from tasklang.verifiers.bracket import bracketed_event
    from tasklang.verifiers.probes import change_scopes, removal_scopes
    from tasklang.verifiers.state import unraised_fields

    cov = coverage(compiled)
    # what may lose no record along the episode: append-only, or removed only somewhere;
    # and what may not change along it: what changes only somewhere
    kept = cov.append_only | frozenset(removal_scopes(compiled.apps))
    if defaults_read(compiled, cov) or carried_specs(compiled, probe_specs(compiled)):
        return True
    raised = unraised_fields(compiled.apps)
    quiet = frozenset(change_scopes(compiled.apps)) - frozenset(raised)
    if any(
        bracketed_event(c, compiled, cov.at_end, cov.fields, kept, quiet=quiet)
        for c in compiled.task.clauses
    ):
        return True
    guards = (ir.UnchangedBody, ir.OnlyChangedBody)
    return any(isinstance(c.body, guards) for c in compiled.task.clauses) and bool(
        listing_specs(compiled, probe_specs(compiled))
    )


def defaults_read(
    compiled: ir.CompiledTask, cov: Coverage | None = None
) -> dict[tuple[str, str], Any]:
    """(app, "collection.field") -> default, for each field of records told apart by nothing
    said to change only somewhere (``unraised_fields``) that no probe reads, of a collection
    only screens show which the task's clauses name: read before the episode, the collection
    may show that no record held another value than the default, and then every record
    holds it at the end where no step took a way to change it (see :func:`fill_unraised`)."""
    from tasklang.verifiers.state import unraised_fields

    cov = cov if cov is not None else coverage(compiled)
    named = {(n.app, n.name) for c in compiled.task.clauses for n in ir.walk(c)
             if isinstance(n, ir.CollectionRef)}  # fmt: skip
    out = {}
    for (app, name), default in unraised_fields(compiled.apps).items():
        coll, fname = name.split(".", 1)
        unread = fname not in cov.fields.get((app, coll), frozenset())
        if (app, coll) in cov.at_end and (app, coll) in named and unread:
            out[(app, name)] = default
    return out


def fill_unraised(
    start: WorldSnapshot | None, end: WorldSnapshot, unraised: dict[tuple[str, str], Any]
) -> tuple[WorldSnapshot, set[tuple[str, str, str]]]:
    """``end`` with each field of ``unraised`` (``unraised_state``: no record came to hold
    another value of it than its default along the episode) set to its default in every
    record that lacks it, where the reading before the episode (``start``) shows every
    record then held the default (none lacks it, as a page that lists no record shows);
    and the (app, collection, field) so read."""
    filled: set[tuple[str, str, str]] = set()
    out = end
    for (app, name), default in sorted(unraised.items(), key=lambda kv: kv[0]):
        coll, fname = name.split(".", 1)
        before = _collection(start, app, coll)
        after = _collection(out, app, coll)
        if before is None or after is None:
            continue
        if any(fname not in r or r[fname] != default for r in before):
            continue
        if after and all(fname in r for r in after):
            continue  # read already
        if out is end:
            out = end.model_copy(deep=True)
        recs = out.apps[app].collections[coll]
        recs[:] = [r if fname in r else {**r, fname: default} for r in recs]
        filled.add((app, coll, fname))
    return out, filled


def carry_unread(
    compiled: ir.CompiledTask,
    start: WorldSnapshot | None,
    end: WorldSnapshot,
    unread: set[tuple[str, str]],
    quiet: frozenset[tuple[str, str]],
    kept: frozenset[tuple[str, str]],
    closed: frozenset[tuple[str, str]],
) -> tuple[WorldSnapshot, set[tuple[str, str]]]:
    """``end`` with each collection of :func:`carried_specs` that the reading at the end
    could not get (``unread``) as the reading before the episode (``start``) got it, where
    the steps prove that no record was removed from it (``kept``) or added to it
    (``closed``), and that no field the probe reads but the key changed in any record
    (``quiet``: the collection, or each such field); and the collections so read."""
    carried: set[tuple[str, str]] = set()
    out = end
    for spec in carried_specs(compiled, probe_specs(compiled)):
        app, coll = spec.key
        before = _collection(start, app, coll)
        rdef = compiled.apps[app].record_of(coll)
        key = rdef.key_field() if rdef is not None else None
        if spec.key not in unread or before is None or key is None:
            continue
        if spec.key not in kept or spec.key not in closed:
            continue
        fields = {f.field for f in spec.fields if f.codec.exact} - {key.name}
        if spec.key not in quiet and any((app, f"{coll}.{f}") not in quiet for f in fields):
            continue
        if out is end:
            out = end.model_copy(deep=True)
        state = out.apps.setdefault(app, AppState())
        state.collections[coll] = [dict(r) for r in before]
        carried.add(spec.key)
    return out, carried


def _collection(snap: WorldSnapshot | None, app: str, coll: str) -> list[dict[str, Any]] | None:
    state = snap.apps.get(app) if snap is not None else None
    return state.collections.get(coll) if state is not None else None


def read_start(
    compiled: ir.CompiledTask, run: Shell, sleep: Callable[[float], None] | None = None
) -> Reading:
    """The state only the apps' screens show (``Coverage.at_end``), read before an episode:
    with the reading after it, it proves some changes along the way (see
    ``tasklang.verifiers.bracket``). The screens' apps are left open. The folders of the
    listings whose rows are not the records are read too (``Reading.listed``): the same
    ones after the episode prove those records unchanged (see :func:`listing_specs`); and so
    are the collections a system service keeps (:func:`carried_specs`)."""
    reading = Reading(WorldSnapshot(tz=_tz(compiled)))
    _read_screens(start_specs(compiled), run, reading, sleep)
    specs = probe_specs(compiled)
    for spec in listing_specs(compiled, specs):
        reading.listed[spec.key] = listed_paths(spec, run)
    for spec in carried_specs(compiled, specs):
        cmd = spec.command()
        if cmd is None:
            continue
        try:
            records = records_of(spec, run(cmd.argv), run)
        except (Ambiguous, wifi.Unlisted, parse.Unread) as exc:
            reading.unread[spec.key] = str(exc)
        else:
            state = reading.snapshot.apps.setdefault(spec.app, AppState())
            state.collections[spec.target] = records
    return reading


def carried_specs(compiled: ir.CompiledTask, specs: list[ProbeSpec]) -> list[ProbeSpec]:
    """The collections a clause reads that a system service keeps, which a reading may not
    get for the phone's state at the time (no bonded Bluetooth device is listed while
    Bluetooth is off): :func:`read_start` reads them before the episode too, and where the
    steps prove them unchanged that reading stands for the one after (:func:`carry_unread`)."""
    read = {
        (n.app, n.name) for n in ir.walk(compiled.task.clauses) if isinstance(n, ir.CollectionRef)
    }
    return [s for s in specs if s.probe.source == "service" and s.kind == "collection"
            and s.key in read]  # fmt: skip


def start_specs(compiled: ir.CompiledTask) -> list[ScreenSpec]:
    """The screen probes :func:`read_start` runs: those of state no other probe reads, but a
    listing of what has not yet started (`upcoming`): a record the listing after the episode
    leaves out may just have started since, so the two readings prove nothing added or
    deleted."""
    at_end = coverage(compiled).at_end
    return [s for s in screen_specs(compiled) if s.key in at_end and s.probe.upcoming is None]


def _read_screens(
    specs: list[ScreenSpec], run: Shell, reading: Reading, sleep: Callable[[float], None] | None
) -> None:
    from tasklang.envs.device.screenread import read_screens

    snap = reading.snapshot
    specs = [s for s in specs if not _stored(snap, s.key)]
    dated = any(r.part == "day" for s in specs for r in s.group_reads)
    if dated and snap.clock is None:  # a day shown without its year is dated by the clock
        snap.clock = parse.parse_date(run(CLOCK.argv))
    today = dt.datetime.fromisoformat(snap.clock).date() if snap.clock else None
    read, unread = read_screens(specs, run, sleep, today)
    reading.unread.update(unread)
    upcoming = [s for s in specs if s.probe.upcoming is not None and s.key in read]
    if upcoming:  # what the lists left out started by the time they were read
        after = dt.datetime.fromisoformat(parse.parse_date(run(CLOCK.argv)))
        until = (after + dt.timedelta(seconds=1)).isoformat()  # `date` drops the fraction
        for spec in upcoming:
            assert spec.probe.upcoming is not None
            reading.unlisted[spec.key] = {ranged(spec.probe.upcoming): {"from": EARLIEST,
                                                                        "to": until}}  # fmt: skip
    for spec in specs:
        if spec.key not in read:
            continue
        state = snap.apps.setdefault(spec.app, AppState())
        if spec.kind == "setting":
            state.settings[spec.target] = read[spec.key]
            continue
        resolve_names(spec, read[spec.key], state.collections)
        state.collections[spec.target] = read[spec.key]


def _stored(snap: WorldSnapshot, key: tuple[str, str]) -> bool:
    state = snap.apps.get(key[0])
    return state is not None and (key[1] in state.collections or key[1] in state.settings)


def _prefs_entries(run: Shell, argv: tuple[str, ...], spec: ProbeSpec) -> dict[str, str | None]:
    """The entries of a shared preferences file (none when the app has not written it)."""
    try:
        return parse.parse_prefs_file(_listing(run, argv))
    except parse.OutputError as exc:
        raise parse.OutputError(f"{spec.app}: {exc}") from None


def _listing(run: Shell, argv: tuple[str, ...]) -> str:
    """`ls` of a folder (or `cat` of a preferences file); one that does not exist lists
    nothing (an app that has stored no preference yet has no file)."""
    from tasklang.envs.device.transport import CommandFailed

    try:
        return run(argv)
    except CommandFailed as exc:
        if "No such file or directory" in exc.output:
            return ""
        raise


def _tz(compiled: ir.CompiledTask) -> str:
    clock = compiled.task.given.clock
    return clock.tz if clock is not None else "UTC"


def _decode(codec: Codec, raw: str | None, spec: ProbeSpec) -> Any:
    try:
        return codec.decode(raw)
    except DecodeError as exc:
        raise parse.OutputError(f"{spec.app}.{spec.target}: {exc}") from None


def service_unlisted(spec: ProbeSpec) -> dict[str, Any]:
    """What every record a `service` probe's reading does not list holds, by field."""
    if spec.probe.namespace == "bluetooth_manager":
        return bluetooth.unlisted(spec.probe.columns)
    return wifi.unlisted(spec.probe.columns)


def raw_rows(spec: ProbeSpec, out: str, run: Shell) -> list[dict[str, str | None]]:
    """The probe's rows as raw column values (files: the listing, contents read by `cat`)."""
    src = spec.probe.source
    if src == "content":
        flag = spec.deleted_flag  # a deleted row, kept until a sync adapter removes it
        kept = parse.parse_content_rows(out, spec.columns)
        return [r for r in kept if flag is None or r.get(flag) != "1"]
    if src == "sqlite":
        return parse.parse_sqlite_quote(out)
    if src == "service" and spec.probe.namespace == "bluetooth_manager":
        return bluetooth.rows(out)  # raises parse.Unread while Bluetooth is off
    if src == "service":  # raises wifi.Unlisted for a connection to a network not listed
        return wifi.rows(out, run(wifi.STATUS))
    pattern = spec.probe.path or ""
    rows: list[dict[str, str | None]] = []
    for e in parse.parse_ls(out, files_root(pattern)):
        if not files_match(pattern, e):
            continue
        row: dict[str, str | None] = {
            "path": e.path, "name": e.name, "stem": posixpath.splitext(e.name)[0],
            "size": str(e.size), "modified": e.modified,
            "folder": folder_below(files_root(pattern), e.path),
            "top_folder": top_folder_below(files_root(pattern), e.path),
        }  # fmt: skip
        if "content" in spec.columns and not e.is_dir:
            row["content"] = run(("cat", e.path))
        rows.append(row)
    return rows


def encode_values(spec: ProbeSpec, record: dict[str, Any]) -> dict[str, str | None]:
    """A record's probed fields as raw column values (what the phone stores). A column
    several fields read holds the first one's value; one field over several columns (`hour,
    minutes`) is written as its parts."""
    out: dict[str, str | None] = {}
    for f in spec.fields:
        if f.link or f.prefs_set or f.elsewhere or f.data_row or f.media:
            continue
        if f.parts[0] in out:
            continue
        codec = f.codec
        raw = codec.from_record(record) if codec.from_record else codec.encode(record.get(f.field))
        if len(f.parts) == 1:
            out[f.column] = raw
            continue
        values = _split_parts(spec, f, raw)
        own = set(f.own_parts)  # a table's rows the app writes itself are not written here
        out.update((c, v) for c, v in zip(f.parts, values, strict=True) if c in own)
    return out


def _split_parts(spec: ProbeSpec, f: FieldMap, raw: str | None) -> list[str | None]:
    """A field's raw value over several columns, as its parts."""
    values = raw.split(",", len(f.parts) - 1) if raw is not None else [None] * len(f.parts)
    if len(values) != len(f.parts):
        raise UnsafeValue(f"{spec.app}.{spec.target}: {raw!r} does not fill {f.column}")
    return list(values)


def link_rows(spec: ProbeSpec, records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The rows of each linked table that hold the records' linked fields, the i-th record
    keyed ``i + 1`` (what the `key` column of its own row holds). A link through a lookup
    table refers to each value by the value itself, and the lookup table gets a row for each
    value (where no collection is read from it: see :func:`lookup_tables`)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for f in spec.fields:
        if not f.inner_links or f.codec.from_record is None:
            continue
        for i, rec in enumerate(records):
            split = _split_parts(spec, f, f.codec.from_record(rec))
            for part, raw in zip(f.parts, split, strict=True):
                link = Link.of(part)  # one of the field's inner links, or its own column
                if link is None:
                    continue
                rows = out.setdefault(link.table, [])
                rows += [{link.fk: i + 1, link.row_value: v} for v in json.loads(raw or "[]")]
    for f in spec.links:
        link = f.link
        assert link is not None
        rows = out.setdefault(link.table, [])
        for i, rec in enumerate(records):
            values = rec.get(f.field)
            for v in values if isinstance(values, list) else [] if values is None else [values]:
                rows.append({link.fk: i + 1, link.row_value: v})
        if link.lookup is not None:
            seen = list(dict.fromkeys(r[link.row_value] for r in rows if link.row_value in r))
            out.setdefault(link.lookup, []).extend(
                {link.lookup_key or "": v, link.value: v} for v in seen
            )
    return out


def lookup_tables(specs: list[ProbeSpec]) -> dict[str, tuple[str, str]]:
    """Lookup tables a collection is read from as well (`caldav_lists`, the task lists): its
    rows are the lookup's rows, referred to by the value: table -> (key column, value
    column)."""
    read = {s.probe.table for s in specs if s.probe.source == "sqlite" and s.kind == "collection"}
    out: dict[str, tuple[str, str]] = {}
    for spec in specs:
        for f in spec.links:
            link = f.link
            if link is not None and link.lookup is not None and link.lookup in read:
                out[link.lookup] = (link.lookup_key or "", link.value)
    return out


def _raw_of(row: dict[str, str | None], fm: FieldMap, spec: ProbeSpec) -> str | None:
    """A field's raw value in a row read back (its columns joined by `,`)."""
    for col in fm.parts:
        if col not in row:
            raise parse.OutputError(f"{spec.app}.{spec.target}: no column `{col}`")
    values = [row[c] for c in fm.parts]
    if len(values) == 1:
        return values[0]
    return None if any(v is None for v in values) else ",".join(str(v) for v in values)


def records_of(spec: ProbeSpec, out: str, run: Shell) -> list[dict[str, Any]]:
    """The records a probe's output holds. Raises :class:`Ambiguous` for a record whose rows
    elsewhere hold several values for one field. A field a row does not keep (a ``partial``
    codec's :class:`NotKept`) is left out of that row's record: the field is then read
    only in the records that hold it (``check.not_kept``)."""
    members = _set_members(spec, run)
    kept = _data_rows(spec, run)
    media = _media_rows(spec, run)
    records: list[dict[str, Any]] = []
    for row in raw_rows(spec, out, run):
        if spec.is_named(row):
            continue
        rec = {}
        for fm in spec.fields:
            if not fm.codec.exact:
                continue
            if fm.media is not None:
                raw = media.get(media_key(row.get("path") or ""), {}).get(fm.media)
            elif fm.data_row is not None:
                raw = _data_value(fm, fm.data_row, row, kept, spec)
            else:
                raw = "0" if fm.elsewhere is not None else _raw_of(row, fm, spec)
            if fm.field in members:  # kept as the record's place in a set
                raw = "1" if raw is not None and raw in members[fm.field] else "0"
            with contextlib.suppress(NotKept):  # a row that does not keep it: left out
                rec[fm.field] = _decode(fm.codec, raw, spec)
        records.append(rec)
    return records


def prefs_records(spec: ProbeSpec, entries: dict[str, str | None]) -> list[dict[str, Any]]:
    """The records a `prefs` probe of a collection reads from the entries of the app's
    shared preferences file, one per id its key names (see :class:`PrefsEntry`). Raises
    ``parse.Unread`` where the entries do not give a record back exactly: an entry missing
    (without `or default`), a value that does not fit its field. A field kept only while
    another holds some values is left out of a record that holds another (a running timer's
    time left): it is read only in the records that hold it (``check.not_kept``)."""
    where = f"{spec.app}.{spec.target}"
    try:
        ids = parse.prefs_record_ids(entries, spec.probe.key or "", PREFS_RECORDS.get(
            spec.probe.form or ""))  # fmt: skip
    except parse.Unread as exc:
        raise parse.Unread(f"{where}: {exc}") from None
    records = []
    later = [fm for fm in spec.fields if (e := fm.prefs_entry) is not None and e.when]
    first = [fm for fm in spec.fields if fm not in later]
    for i, rid in enumerate(ids):
        prev = ids[i - 1] if i else None
        rec: dict[str, Any] = {}
        for fm in first:
            rec[fm.field] = _prefs_field(fm, rid, prev, entries, where)
        for fm in later:
            entry = fm.prefs_entry
            assert entry is not None and entry.when is not None
            if rec.get(entry.when) in entry.among:
                rec[fm.field] = _prefs_field(fm, rid, prev, entries, where)
        records.append(rec)
    return records


def _prefs_field(
    fm: FieldMap, rid: str, prev: str | None, entries: dict[str, str | None], where: str
) -> Any:
    """One field of the record ``rid`` (``prev``: the id before it) read from its entry."""
    entry = fm.prefs_entry
    if entry is None:
        raise parse.Unread(f"{where}: `{fm.column}` names no entry of `{fm.field}`")
    if entry.own_id:
        raw: str | None = rid
    else:
        key = entry.entry(rid)
        if key not in entries and not entry.default:
            raise parse.Unread(f"{where}: record {rid} has no entry `{key}` for `{fm.field}`")
        raw = entries.get(key)
        if entry.since and raw is not None:
            before = entries.get(entry.entry(prev)) if prev is not None else "0"
            raw = _difference(raw, before, f"{where}: record {rid}'s `{fm.field}`")
    try:
        return fm.codec.decode(raw)
    except DecodeError as exc:
        raise parse.Unread(f"{where}: record {rid}'s `{fm.field}`: {exc}") from None


_WHOLE = re.compile(r"-?\d{1,19}")


def _difference(raw: str, before: str | None, what: str) -> str:
    """An entry less the previous record's, as text (both must be integers)."""
    if before is None or not _WHOLE.fullmatch(raw) or not _WHOLE.fullmatch(before):
        raise parse.Unread(f"{what} is kept as {raw[:40]!r} after {str(before)[:40]!r}")
    return str(int(raw) - int(before))


def prefs_record_entries(
    spec: ProbeSpec, records: list[dict[str, Any]], lost: list[str] | None = None
) -> dict[str, tuple[str, str]]:
    """The entries of the app's shared preferences that keep ``records`` as the app writes
    them (the i-th record gets the i-th id: from 0 in a set, else from the count's start),
    each key -> (element, stored text); a set of ids as a JSON array. A field kept only as a
    difference from the previous record (`since previous`) is not written, nor a value with
    no stored form. A record the entries would give back as another (a lap numbered other
    than by its place, a city in a time zone not its own) is written without its entries:
    read back, it leaves the collection unread, never read as another record (its id is
    added to ``lost``)."""
    lost = lost if lost is not None else []
    start = PREFS_RECORDS.get(spec.probe.form or "")
    ids = [str(i + (start or 0)) for i in range(len(records))]
    key = spec.probe.key or ""
    out: dict[str, tuple[str, str]] = {}
    if start is None:
        out[key] = ("set", json.dumps(ids))
    elif ids:
        out[key] = ("int", str(len(ids)))
    for rid, rec in zip(ids, records, strict=True):
        for fm in spec.fields:
            entry = fm.prefs_entry
            if entry is None or entry.own_id or entry.since or entry.entry(rid) in out:
                continue
            try:
                raw = fm.codec.encode(rec.get(fm.field))
            except DecodeError:
                continue
            if raw is not None:
                out[entry.entry(rid)] = (entry.stored_as or "string", raw)
    entries: dict[str, str | None] = {k: raw for k, (_, raw) in out.items()}  # as read back
    for i, (rid, rec) in enumerate(zip(ids, records, strict=True)):
        if not _reads_back(spec, entries, rid, ids[i - 1] if i else None, rec):
            for fm in spec.fields:
                entry = fm.prefs_entry
                if entry is not None and not entry.own_id:
                    out.pop(entry.entry(rid), None)
                    entries.pop(entry.entry(rid), None)
            lost.append(rid)
    return out


def prefs_hold(spec: ProbeSpec, records: list[dict[str, Any]]) -> bool:
    """Whether the app's shared preferences can keep ``records`` as they are: each is given
    back as itself (laps are numbered by their place, and a lap's time is the difference of
    two totals, so a lap missing in the middle is no state the stopwatch can be in)."""
    lost: list[str] = []
    prefs_record_entries(spec, records, lost)
    return not lost


def _reads_back(
    spec: ProbeSpec, entries: dict[str, str | None], rid: str, prev: str | None,
    rec: dict[str, Any],
) -> bool:  # fmt: skip
    """Whether ``entries`` give the record ``rid`` back as ``rec`` (a field kept only while
    another holds some values counts where it is read)."""
    where = f"{spec.app}.{spec.target}"
    for fm in spec.fields:
        entry = fm.prefs_entry
        if entry is not None and entry.when is not None and rec.get(entry.when) not in entry.among:
            continue
        try:
            if _prefs_field(fm, rid, prev, entries, where) != rec.get(fm.field):
                return False
        except parse.Unread:
            return False
    return True


def _set_members(spec: ProbeSpec, run: Shell) -> dict[str, set[str]]:
    """For each field kept as a set of the app's shared preferences, the set's members."""
    out: dict[str, set[str]] = {}
    for fm in spec.prefs_sets:
        member = fm.prefs_set
        if member is None or not fm.codec.exact:
            continue
        raw = _prefs_entries(run, member.command(spec.package).argv, spec).get(member.key)
        values = json.loads(raw) if raw is not None and raw.startswith("[") else None
        if raw is not None and not isinstance(values, list):
            raise parse.OutputError(f"{spec.app}: shared preference `{member.key}` is not a set")
        out[fm.field] = {str(v) for v in values or []}
    return out


def _data_rows(spec: ProbeSpec, run: Shell) -> dict[str, list[dict[str, str | None]]]:
    """The rows of the other providers the fields are kept in, by provider."""
    out: dict[str, list[dict[str, str | None]]] = {}
    for cmd in spec.data_commands():
        uri, columns = cmd.argv[3], cmd.argv[5].split(":")
        try:
            out[uri] = parse.parse_content_rows(run(cmd.argv), columns)
        except parse.OutputError as exc:
            raise parse.OutputError(f"{spec.app}.{spec.target}: {uri}: {exc}") from None
    return out


def media_key(path: str) -> tuple[str, str] | None:
    """The media store's (relative_path, _display_name) of a file in shared storage (None:
    a file outside it, which the media store does not keep).

    >>> media_key("/sdcard/DCIM/Camera/VID_1.mp4"), media_key("/data/local/tmp/a")
    (('DCIM/Camera/', 'VID_1.mp4'), None)
    """
    path = posixpath.normpath(path)
    for top in SHARED_STORAGE:
        if path.startswith(top):
            folder, name = posixpath.split(path[len(top) :])
            return (f"{folder}/" if folder else "", name)
    return None


def _media_rows(spec: ProbeSpec, run: Shell) -> dict[tuple[str, str] | None, dict[str, Any]]:
    """The media store's rows for a files probe's media fields, by (folder, name). A file
    with several rows (the media store keeps one per file) is not read from them."""
    cmd = spec.media_command()
    if cmd is None:
        return {}
    columns = cmd.argv[5].split(":")
    try:
        rows = parse.parse_content_rows(run(cmd.argv), columns)
    except parse.OutputError as exc:
        raise parse.OutputError(f"{spec.app}.{spec.target}: {MEDIA_URI}: {exc}") from None
    out: dict[tuple[str, str] | None, dict[str, Any]] = {}
    seen: set[tuple[str, str]] = set()
    for r in rows:
        key = (r.get(MEDIA_KEY[0]) or "", r.get(MEDIA_KEY[1]) or "")
        if key in seen:
            out.pop(key, None)
            continue
        seen.add(key)
        out[key] = r
    return out


def _data_value(
    fm: FieldMap,
    data: DataRow,
    row: dict[str, str | None],
    kept: dict[str, list[dict[str, str | None]]],
    spec: ProbeSpec,
) -> str | None:
    """A field's raw value in the rows of another provider that point at the record's row
    (None: no such row holds one; a list kept a row per item: a JSON array)."""
    if data.row_key not in row:
        raise parse.OutputError(f"{spec.app}.{spec.target}: no column `{data.row_key}`")
    key = row[data.row_key]
    if key is None:
        return None
    rows = [r for r in kept.get(data.uri, []) if r.get(data.key) == key and data.holds(r)]
    if fm.codec.many:
        return _items(fm, data, key, [r.get(data.value) for r in rows], spec)
    if not data.conds and data.own is not None and not rows:  # a reference to one row
        raise Ambiguous(
            f"{spec.app}.{spec.target}: the record's {data.own} {key!r} names no row of "
            f"{data.uri} for `{fm.field}`"
        )
    values = list(dict.fromkeys(r.get(data.value) for r in rows if r.get(data.value) is not None))
    if data.look is not None:
        look = data.look
        names = {r.get(look.key): r.get(look.value) for r in kept.get(look.uri, [])}
        named = [names.get(v) for v in values]
        values = list(dict.fromkeys(v for v in named if v is not None and _reads(fm.codec, v)))
    if len(values) > 1:
        raise Ambiguous(
            f"{spec.app}.{spec.target}: the record kept as {data.row_key} {key} has "
            f"{len(values)} values for `{fm.field}` in {data.uri}, which holds one"
        )
    return values[0] if values else None


def _items(fm: FieldMap, data: DataRow, key: str, values: list[str | None], spec: ProbeSpec) -> str:
    """A list kept a row per item, as a JSON array. The provider keeps no order among the
    rows (an app may delete and write them again on any edit of the record they belong to),
    so only a list of one item at most is read; more, or a row without a value (a contact
    without a name), is :class:`Ambiguous`."""
    where = f"{spec.app}.{spec.target}: the record kept as {data.row_key} {key} has"
    if len(values) > 1:
        raise Ambiguous(
            f"{where} {len(values)} rows for `{fm.field}` in {data.uri}, which keeps no "
            "order among them"
        )
    if None in values:
        raise Ambiguous(f"{where} a row for `{fm.field}` in {data.uri} without `{data.value}`")
    return json.dumps(values, ensure_ascii=False)


def _reads(codec: Codec, raw: str) -> bool:
    """Whether a value read is one the field's codec has a value for."""
    try:
        codec.decode(raw)
    except DecodeError:
        return False
    return True
