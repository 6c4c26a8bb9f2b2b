"""App model declarations (AST) -> ``ir.AppModel``, with their own checks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tasklang import ast, ir
from tasklang.diagnostics import did_you_mean
from tasklang.literals import LiteralError, decode
from tasklang.lower import RESERVED_NAMES, Reporter
from tasklang.screenprobe import build_screen_probe, selector
from tasklang.source import Span
from tasklang.types import coerce_literal, whole_minute

# settings provider tables, then system services that keep a setting themselves (read with
# `cmd SERVICE get KEY`): each service's known boolean keys
SERVICE_SETTINGS = {"netpolicy": ("restrict-background",)}
# what the media session service keeps for an app's player (read only, `dumpsys
# media_session`): each key and the type of setting it reads
SESSION_VALUES = {"title": "text", "playing": "bool"}
PROBE_NAMESPACES = ("system", "secure", "global", *SERVICE_SETTINGS, "media_session")
FILE_ATTRS = ("path", "name", "stem", "size", "modified", "content", "folder", "top_folder")
# a files probe's field that no listing shows but that the app sets, when it makes the file,
# from one of its settings (a photo's lens): "SETTING when added"
STAMPED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*) when added")
# a files probe's field that the media store keeps for the file, from what the file holds (a
# video's length): "media COLUMN", each such column with the type of field it reads
MEDIA = re.compile(r"media (\w+)")
MEDIA_COLUMNS = {"duration": "duration"}
# system services that keep records of their own, which a `service` probe reads through the
# service's shell command: each service's attributes and the types of field they read. The
# Wi-Fi service keeps the saved networks (not those only in range): `saved` is true of every
# network it lists, and `connected` of the one it is connected to; the Bluetooth manager
# keeps the bonded devices (while Bluetooth is on): `paired` is true of every device it lists
SERVICE_RECORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "wifi": {
        "ssid": ("text",),
        "security": ("enum",),
        "saved": ("bool",),
        "connected": ("bool",),
    },
    "bluetooth_manager": {
        "name": ("text",),
        "paired": ("bool",),
    },
}
# how a `prefs` probe's entry keeps a number: a duration in a unit (its milliseconds), or bits
# of a flags integer
PREFS_UNITS = {"millis": 1, "seconds": 1000, "minutes": 60_000}
PREFS_FORMS = (*PREFS_UNITS, "bits")
# how a `prefs` probe of a collection names its records: the members of a string set, or the
# numbers below a count (from 0: `indexed`; from 1: `numbered`)
PREFS_RECORDS = {"set": None, "indexed": 0, "numbered": 1}
# one field of a record kept in shared preferences: the entry's key (`{id}` stands for the
# record's id; `{id}` alone is the id itself), then how the entry keeps the value: a unit, the
# difference from the previous record's entry, only while another field holds some values, the
# field's default while there is no entry, a map of values to stored forms
PREFS_ENTRY = re.compile(
    r"(?P<key>[^\s{}]*\{id\}[^\s{}]*)"
    r"(?: (?P<unit>millis|seconds|minutes))?"
    r"(?P<since> since previous)?"
    r"(?: while (?P<when>\w+) is (?P<among>\w+(?: or \w+)*))?"
    r"(?P<default> or default)?"
    r"(?: as (?P<map>[^=,]+=[^=,]+(?:, [^=,]+=[^=,]+)*))?"
)


def prefs_entry_map(text: str | None) -> list[tuple[str, str]]:
    """The (value, stored form) pairs of a `PREFS_ENTRY` map.

    >>> prefs_entry_map("running=1, paused=2")
    [('running', '1'), ('paused', '2')]
    """
    pairs = [part.rpartition("=") for part in (text or "").split(", ") if part]
    return [(value, stored) for value, _, stored in pairs]


@dataclass
class AppBuilder(Reporter):
    """Builds ``ir.AppModel`` from an app declaration; collects diagnostics."""

    # the app's fields of records without a key said to change only somewhere, and where
    keyless_fields: list[tuple[str, Span]] = field(default_factory=list)

    def build(self, decl: ast.AppDecl) -> ir.AppModel:
        app = ir.AppModel(name=decl.name, span=decl.span)
        probes: list[ast.ProbeDecl] = []
        for item in decl.items:
            if isinstance(item, ast.AppPackage):
                app.package = self.string(item.value, item.span)
            elif isinstance(item, ast.AppLabel):
                app.label = self.string(item.value, item.span)
            elif isinstance(item, ast.AppHost):
                app.host = item.name
            elif isinstance(item, ast.RecordDecl):
                self.record(app, item)
            elif isinstance(item, ast.CollectionDecl):
                self.collection(app, item)
            elif isinstance(item, ast.SettingsDecl):
                for f in item.fields:
                    self.add_field(app, app.settings, f, f"the settings of `{app.name}`")
            elif isinstance(item, ast.ProbeDecl):
                probes.append(item)
        changes = [i for i in decl.items if isinstance(i, ast.ChangeDecl)]
        for change in (c for c in changes if c.verb == "changes"):
            self.change_scope(app, change)
        self.fields_told_apart(app)
        for change in (c for c in changes if c.verb != "changes"):  # records told apart
            self.record_scope(app, change)
        for coll_decl in (i for i in decl.items if isinstance(i, ast.CollectionDecl)):
            rdef = app.record(coll_decl.record)
            if rdef is None:
                self.error(
                    "TL1009",
                    f"no record type `{coll_decl.record}` in app `{app.name}`",
                    coll_decl.span,
                    did_you_mean(coll_decl.record, [r.name for r in app.records]),
                )
            elif coll_decl.append_only:
                self.append_only(coll_decl, rdef)
        if not app.package:
            self.error(
                "TL1014",
                f"app `{app.name}` has no `package`",
                decl.span,
                'add `package "com.example.app"`',
            )
        for p in probes:
            probe = self.probe(app, p)
            if probe is not None:
                app.probes.append(probe)
        return app

    def record(self, app: ir.AppModel, decl: ast.RecordDecl) -> None:
        if app.record(decl.name) is not None:
            self.error("TL1005", f"record `{decl.name}` is declared twice", decl.span)
            return
        rec = ir.RecordDef(name=decl.name, fields=[], span=decl.span)
        for f in decl.fields:
            self.add_field(app, rec.fields, f, f"record `{decl.name}`")
        app.records.append(rec)

    def collection(self, app: ir.AppModel, decl: ast.CollectionDecl) -> None:
        if app.collection(decl.name) is not None or app.setting(decl.name) is not None:
            self.error("TL1005", f"`{decl.name}` is declared twice in app `{app.name}`", decl.span)
            return
        app.collections.append(
            ir.CollectionDef(
                name=decl.name, record=decl.record, append_only=decl.append_only, span=decl.span
            )
        )

    def change_scope(self, app: ir.AppModel, decl: ast.ChangeDecl) -> None:
        """`changes <names> only on <screens>` (or `by itself`): each name a collection or
        setting of the app, or a field of a collection's records, said of once."""
        names = []
        for item in decl.names:
            name, at = item.text, item.span
            if "." in name:
                keyed = not decl.by_itself and bool(decl.screens)
                if not self.changing_field(app, name, at, keyed=keyed):
                    continue
            elif app.collection(name) is None and app.setting(name) is None:
                known = [c.name for c in app.collections] + [s.name for s in app.settings]
                self.error("TL1033", f"app `{app.name}` has no collection or setting `{name}`",
                           at, did_you_mean(name, known))  # fmt: skip
                continue
            if (
                name in names
                or name in app.by_itself
                or any(
                    decl.by_itself or not c.screens or not decl.screens or c.by_tap == decl.by_tap
                    for c in app.changes_of(name)
                )
            ):
                self.error("TL1033", f"where `{name}` changes is said twice in app "
                           f"`{app.name}`", at, "name it in one `only on` line and one "
                           "`only by` line at most, or in one `nowhere` or `by itself` "
                           "line")  # fmt: skip
            elif (clash := self.by_itself_clash(app, name, decl.by_itself)) is not None:
                self.error("TL1033", clash, at, "say it of the collection, or of its fields "
                           "one by one")  # fmt: skip
            else:
                names.append(name)
        if names and decl.by_itself:
            app.by_itself.extend(names)
        elif names:
            screens = [selector(self, s) for s in decl.screens]
            app.changes.append(
                ir.ChangeScope(names=names, screens=screens, by_tap=decl.by_tap, span=decl.span)
            )

    def record_scope(self, app: ir.AppModel, decl: ast.ChangeDecl) -> None:
        """`removes <collections> only on <screens>` (`adds`, `undoes`; `only by`, `nowhere`):
        each name a collection of the app whose records are told apart (a record removed is
        its key gone, one added a key new; without a key, by the fields that never change: a
        record removed is one fewer holding those values, one added one more; `undoes` needs
        a key, which follows a record from update to update), said of in one `only on` and
        one `only by` line at most, or in one `nowhere` line, of each verb."""
        done, scopes = {
            "removes": ("removed", app.removals),
            "adds": ("added", app.additions),
            "undoes": ("brought back", app.reversals),
        }[decl.verb]
        if decl.by_itself:
            self.error("TL1033", f"records are not {done} `by itself` in a `{decl.verb}` line",
                       decl.span, f"leave the collection out: with no `{decl.verb}` line its "
                       f"records may be {done} wherever it changes")  # fmt: skip
            return
        names = []
        for item in decl.names:
            name, at = item.text, item.span
            rdef = app.record_of(name)
            if app.collection(name) is None or rdef is None:
                known = [c.name for c in app.collections]
                self.error("TL1033", f"app `{app.name}` has no collection `{name}`", at,
                           did_you_mean(name, known))  # fmt: skip
            elif decl.verb == "undoes" and rdef.key_field() is None:
                self.error("TL1033", f"the records of `{app.name}.{name}` have no key field, so "
                           "nothing follows a record from one update to the next", at,
                           f"mark with `key` the field of `{rdef.name}` that tells its records "
                           "apart")  # fmt: skip
            elif not app.identity(name):
                self.error("TL1033", f"the records of `{app.name}.{name}` have no key field, "
                           "nor fields that never change, so nothing says which record was "
                           f"{done}", at, f"mark with `key` the field of `{rdef.name}` that "
                           f"tells its records apart, or say which never change (`changes "
                           f"{name}.FIELD nowhere`)")  # fmt: skip
            elif name in names or any(
                not c.screens or not decl.screens or c.by_tap == decl.by_tap
                for c in scopes
                if name in c.names
            ):
                self.error("TL1033", f"where records of `{name}` are {done} is said twice in "
                           f"app `{app.name}`", at, "name it in one `only on` line and one "
                           "`only by` line at most, or in one `nowhere` line")  # fmt: skip
            else:
                names.append(name)
        if names:
            screens = [selector(self, s) for s in decl.screens]
            scopes.append(
                ir.ChangeScope(names=names, screens=screens, by_tap=decl.by_tap, span=decl.span)
            )

    @staticmethod
    def by_itself_clash(app: ir.AppModel, name: str, by_itself: bool) -> str | None:
        """Why `name` cannot be said of so: a collection that changes by itself, whole, has
        no field said of apart. (A collection said to change only somewhere, or nowhere, may
        have fields that change by themselves: the line then holds of its other fields and of
        its records' additions and deletions.)"""
        coll, dot, _ = name.partition(".")
        if dot and coll in app.by_itself:
            return f"`{app.name}.{coll}` changes by itself, whole: `{name}` with it"
        if not dot and by_itself:
            fields = [f"{name}.{f}" for f in app.loose_fields(name)]
            fields += [n for c in app.changes for n in c.names if n.startswith(f"{name}.")]
            if fields:
                return f"`{app.name}.{name}` changes by itself, but `{fields[0]}` is said of too"
        return None

    def stamped(
        self, app: ir.AppModel, coll: str, record: ir.RecordDef, col: ast.ProbeColumn, name: str
    ) -> None:
        """`FIELD = "SETTING when added"`: the app sets the field, when it makes the record,
        to the setting's value then, and never changes it (`changes COLL.FIELD nowhere`)."""
        setting, fdef = app.setting(name), record.field(col.name)
        if setting is None:
            self.error("TL1023", f"app `{app.name}` has no setting `{name}`", col.span,
                       did_you_mean(name, [s.name for s in app.settings]))  # fmt: skip
        elif fdef is not None and not _same_values(setting.type, fdef.type):
            self.error("TL1023", f"setting `{name}` holds other values than field "
                       f"`{col.name}`", col.span, "the field takes the setting's value: "
                       "give both the same type")  # fmt: skip
        elif fdef is not None and not any(
            not c.screens for c in app.changes_of(f"{coll}.{col.name}")
        ):
            self.error("TL1023", f"`{coll}.{col.name}` is read as the setting when the record "
                       "was added, so it must never change after", col.span,
                       f"declare `changes {coll}.{col.name} nowhere`")  # fmt: skip

    def service_attr(self, service: str, record: ir.RecordDef, col: ast.ProbeColumn) -> None:
        """`FIELD = "ATTRIBUTE"` of a `service` probe: one the service gives, of a field of
        its type (an unknown service is reported once, on the probe)."""
        attrs = SERVICE_RECORDS.get(service)
        attr, fdef = col.column[1:-1], record.field(col.name)
        if attrs is None:
            return
        if attr not in attrs:
            self.error("TL1023", f"service `{service}` gives no `{attr}`", col.span,
                       did_you_mean(attr, list(attrs)) or f"it gives {', '.join(attrs)}")  # fmt: skip
        elif fdef is not None and fdef.type.name not in attrs[attr]:
            self.error("TL1023", f"`{attr}` of service `{service}` reads a "
                       f"{' or '.join(attrs[attr])} field, and `{col.name}` is "
                       f"{fdef.type.name}", col.span)  # fmt: skip

    def media(self, record: ir.RecordDef, col: ast.ProbeColumn, column: str) -> None:
        """`FIELD = "media COLUMN"`: the media store's column for the file (its row found by
        the file's folder and name), of a field of the column's type."""
        fdef = record.field(col.name)
        want = MEDIA_COLUMNS.get(column)
        if want is None:
            self.error("TL1023", f"the media store's column `{column}` is not read", col.span,
                       f"files probes read {', '.join(MEDIA_COLUMNS)} from the media store")  # fmt: skip
        elif fdef is not None and fdef.type.name != want:
            self.error("TL1023", f"the media store's `{column}` reads a {want} field, and "
                       f"`{col.name}` is {fdef.type.name}", col.span)  # fmt: skip

    def changing_field(self, app: ir.AppModel, name: str, at: Span, keyed: bool = True) -> bool:
        """`collection.field` in a `changes` line (at ``at``): a field of the collection's
        records other than its key (a record is followed by its key, so the key itself never
        changes in a record). A field that changes by itself, or nowhere (``keyed`` False),
        needs no key: its record is told by likeness, and fields that never change are what
        tell records without a key apart. One that changes only somewhere needs a key, or
        fields that never change (:meth:`fields_told_apart`, once every line is read)."""
        coll, fname = name.split(".", 1)
        rdef = app.record_of(coll)
        if rdef is None:
            known = [c.name for c in app.collections]
            self.error("TL1033", f"app `{app.name}` has no collection `{coll}`", at,
                       did_you_mean(coll, known))  # fmt: skip
            return False
        key = rdef.key_field()
        if rdef.field(fname) is None:
            self.error("TL1033", f"record `{rdef.name}` of `{app.name}.{coll}` has no field "
                       f"`{fname}`", at,
                       did_you_mean(fname, [f.name for f in rdef.fields]))  # fmt: skip
            return False
        if key is not None and fname == key.name:
            self.error("TL1033", f"`{name}` is the key of `{app.name}.{coll}`: a record never "
                       "changes its key (a new key is another record)", at,
                       f"say where `{coll}` changes instead")  # fmt: skip
            return False
        if key is None and keyed:
            self.keyless_fields.append((name, at))
        return True

    def fields_told_apart(self, app: ir.AppModel) -> None:
        """A field said to change only somewhere, of records without a key: the records
        are told apart by the fields that never change (``changes C.F nowhere``), as a
        record that keeps them is the same record. Records told apart by nothing may have
        such a line for a field with a default: it then says where a record comes to hold
        another value of it (:func:`tasklang.verifiers.state.field_unraised`)."""
        pending, self.keyless_fields = self.keyless_fields, []
        for name, at in pending:
            coll, fname = name.split(".", 1)
            rdef = app.record_of(coll)
            fdef = rdef.field(fname) if rdef is not None else None
            if app.identity(coll) or (fdef is not None and fdef.defaulted):
                continue
            self.error("TL1033", f"`{name}`: the records of `{app.name}.{coll}` have no key "
                       "field, nor fields that never change, so nothing says which record a "
                       "field changed in, and the field has no default to be raised from", at,
                       "say where the whole collection changes instead, or which fields "
                       f"never change (`changes {coll}.FIELD nowhere`), or give `{fname}` a "
                       "default")  # fmt: skip
            for scope in app.changes:
                if name in scope.names:
                    scope.names.remove(name)
            app.changes = [c for c in app.changes if c.names]

    def append_only(self, decl: ast.CollectionDecl, rdef: ir.RecordDef) -> None:
        """An append-only collection keeps each record under its key, so its record type
        needs a key field that cannot be left empty."""
        key = rdef.key_field()
        if key is None:
            self.error("TL1032", f"append-only collection `{decl.name}` has no key field",
                       decl.span, f"mark with `key` the field of `{rdef.name}` that tells its "
                       "records apart: the collection keeps each record under it")  # fmt: skip
        elif key.type.optional:
            self.error("TL1032", f"the key `{key.name}` of append-only collection "
                       f"`{decl.name}` is optional", decl.span,
                       "a record without a key cannot be told apart from the others")  # fmt: skip

    def add_field(
        self, app: ir.AppModel, into: list[ir.FieldDef], decl: ast.FieldDecl, what: str
    ) -> None:
        if decl.name in RESERVED_NAMES:
            self.error(
                "TL1031", f"`{decl.name}` is a reserved word", decl.span, "choose another name"
            )
        if any(f.name == decl.name for f in into):
            self.error("TL1005", f"`{decl.name}` is declared twice in {what}", decl.span)
            return
        typ = self.type_ref(decl.type)
        fdef = ir.FieldDef(name=decl.name, type=typ, key=decl.key, span=decl.span)
        base = decl.type.base
        if isinstance(base, ast.NamedType) and base.unit is not None and typ.name != "any":
            if into is app.settings:
                self.error("TL1009", f"setting `{decl.name}`: `datetime(minute)` is the type of "
                           "a record's field", base.span, "declare the setting `datetime`")  # fmt: skip
            fdef.unit = "minute"
        if decl.default is not None:
            fdef.default = self.default(decl, typ)
            fdef.has_default = True
            if fdef.unit is not None and not whole_minute(fdef.default):
                self.error("TL1010", f"default of `{decl.name}` is not a whole minute: "
                           f"`{decl.name}` is `datetime(minute)`", decl.default.span)  # fmt: skip
        into.append(fdef)

    def type_ref(self, ref: ast.TypeRef) -> ir.Type:
        base = ref.base
        if isinstance(base, ast.NamedType) and base.unit is not None:
            if base.unit != "minute" or base.name != "datetime":
                self.error("TL1009", f"unknown type `{base.name}({base.unit})`", base.span,
                           "`datetime(minute)`: a datetime whose values are whole minutes")  # fmt: skip
                return ir.Type(name="any")
            return ir.Type(name="datetime", optional=ref.optional)
        return self.type_base(ref.base).model_copy(update={"optional": ref.optional})

    def type_base(self, base: ast.TypeBase) -> ir.Type:
        if isinstance(base, ast.EnumType):
            if len(set(base.members)) != len(base.members):
                self.error("TL1005", "an enum member is listed twice", base.span)
            return ir.Type(name="enum", members=tuple(dict.fromkeys(base.members)))
        if isinstance(base, ast.ListType):
            return ir.Type(name="list", item=self.type_base(base.item))
        assert isinstance(base, ast.NamedType)
        if base.unit is not None:  # a list's items: a field's own type says its unit
            self.error("TL1009", f"`{base.name}({base.unit})` is the type of a field, not of a "
                       "list's items", base.span)  # fmt: skip
            return ir.Type(name="any")
        if base.name not in ir.SCALAR_TYPES:
            self.error(
                "TL1009",
                f"unknown type `{base.name}`",
                base.span,
                did_you_mean(base.name, ir.SCALAR_TYPES) or "types: " + ", ".join(ir.SCALAR_TYPES),
            )
            return ir.Type(name="any")
        return ir.Type(name=base.name)  # type: ignore[arg-type]

    def default(self, decl: ast.FieldDecl, typ: ir.Type) -> Any:
        assert decl.default is not None
        value = _literal_value(decl.default)
        if value is _NOT_LITERAL:
            self.error("TL1010", f"default of `{decl.name}` must be a literal", decl.default.span)
            return None
        try:
            return coerce_literal(value, typ)
        except (LiteralError, ValueError) as exc:
            self.error(
                "TL1010", f"default of `{decl.name}` does not fit `{typ}`: {exc}", decl.default.span
            )
            return None

    def probe(self, app: ir.AppModel, decl: ast.ProbeDecl) -> ir.Probe | None:
        target = decl.target.parts[-1]
        if len(decl.target.parts) > 2 or (
            len(decl.target.parts) == 2 and decl.target.parts[0] != "settings"
        ):
            self.error(
                "TL1023",
                f"probe target `{decl.target.text}` is not a collection or setting name",
                decl.target.span,
            )
            return None
        coll = app.collection(target)
        setting = app.setting(target)
        if coll is None and setting is None:
            names = [c.name for c in app.collections] + [s.name for s in app.settings]
            self.error(
                "TL1023",
                f"app `{app.name}` has no collection or setting `{target}`",
                decl.target.span,
                did_you_mean(target, names),
            )
            return None
        args = [self.string(a, decl.span) if a.startswith('"') else a for a in decl.args]
        probe = ir.Probe(target=target, source=decl.source, span=decl.span)  # type: ignore[arg-type]
        if decl.source == "content":
            probe.uri = args[0]
        elif decl.source == "setting":
            if args[0] not in PROBE_NAMESPACES:
                self.error(
                    "TL1023",
                    f"unknown settings namespace `{args[0]}`",
                    decl.span,
                    did_you_mean(args[0], PROBE_NAMESPACES)
                    or "use system, secure, global, netpolicy or media_session",
                )
            probe.namespace, probe.key = args[0], args[1]
            self.service_setting(args[0], args[1], setting, decl)
        elif decl.source == "sqlite":
            probe.path, probe.table = args[0], args[1]
        elif decl.source == "files":
            probe.path = args[0]
        elif decl.source == "service":
            probe.namespace = args[0]
            if args[0] not in SERVICE_RECORDS:
                self.error("TL1023", f"no service `{args[0]}` keeps records a probe reads",
                           decl.span, f"services: {', '.join(SERVICE_RECORDS)}")  # fmt: skip
        elif decl.source == "prefs":
            probe.path, probe.key = args[0], args[1]
            probe.form = args[2] if len(args) > 2 else None
            self.prefs(app, decl, probe, setting)
            return probe
        elif decl.source == "screen":
            record = app.record(coll.record) if coll is not None else None
            build_screen_probe(self, app, decl, probe, record, setting)
        else:
            assert decl.selector is not None
            probe.selector = ir.Selector(
                attrs=[
                    ir.UiAttr(attr=a.attr, value=self.string(a.value, a.span))  # type: ignore[arg-type]
                    for a in decl.selector.attrs
                ]
            )
        if decl.source == "setting" and coll is not None:
            self.error("TL1023", "a `setting` probe must target a setting", decl.span)
        if decl.source == "sqlite" and setting is not None:
            self.row_list(decl, setting)
        elif decl.source in ("content", "sqlite", "files", "service") and coll is None:
            self.error("TL1023", f"a `{decl.source}` probe reads records, not a setting",
                       decl.span, "an app's own setting is read by a `prefs` probe")  # fmt: skip
        record = app.record(coll.record) if coll is not None else None
        if any(p.target == target for p in app.probes):
            self.error(
                "TL1023",
                f"`{target}` already has a probe",
                decl.span,
                "a collection or setting is read back by one probe",
            )
        for col in decl.columns or []:
            stamped = STAMPED.fullmatch(col.column[1:-1])
            media = MEDIA.fullmatch(col.column[1:-1])
            if decl.source == "files" and stamped is not None and record is not None:
                self.stamped(app, target, record, col, stamped[1])
            elif decl.source == "files" and media is not None and record is not None:
                self.media(record, col, media[1])
            elif decl.source == "service" and record is not None:
                self.service_attr(args[0], record, col)
            elif decl.source == "files" and col.column[1:-1] not in FILE_ATTRS:
                self.error(
                    "TL1023",
                    f'files probes read {", ".join(FILE_ATTRS)}, "media COLUMN" or '
                    f'"SETTING when added", not {col.column}',
                    col.span,
                )
            if setting is not None and col.name != setting.name:
                self.error("TL1023", f"this probe reads setting `{setting.name}`, not `{col.name}`",
                           col.span, f"write `{{ {setting.name} = \"COLUMN\" }}`")  # fmt: skip
            if record is not None and record.field(col.name) is None:
                self.error(
                    "TL1023",
                    f"record `{record.name}` has no field `{col.name}`",
                    col.span,
                    did_you_mean(col.name, [f.name for f in record.fields]),
                )
            probe.columns[col.name] = self.string(col.column, col.span)
        return probe

    def row_list(self, decl: ast.ProbeDecl, setting: ir.FieldDef) -> None:
        """Checks a `sqlite` probe of a setting: a list whose items are the rows of a table,
        in the order the app inserted them, one column of each (a player's queue)."""
        item = setting.type.item
        if setting.type.name != "list" or item is None or item.name in ("list", "record", "any"):
            self.error("TL1023", f"a `sqlite` probe reads a setting that is a list of values "
                       f"(one per row), not `{setting.type}`", decl.span,
                       "a single value the app keeps is read by a `prefs` probe")  # fmt: skip
        if len(decl.columns or []) != 1:
            self.error("TL1023", f"a `sqlite` probe of setting `{setting.name}` names the one "
                       "column its rows hold the items in", decl.span,
                       f'write `{{ {setting.name} = "COLUMN" }}`')  # fmt: skip

    def service_setting(
        self, service: str, key: str, setting: ir.FieldDef | None, decl: ast.ProbeDecl
    ) -> None:
        """A setting a system service keeps: one of its known keys, on a boolean."""
        if service == "media_session":
            kind = SESSION_VALUES.get(key)
            if kind is None:
                self.error("TL1023", f"the media session keeps no value `{key}`", decl.span,
                           did_you_mean(key, list(SESSION_VALUES))
                           or f"known: {', '.join(SESSION_VALUES)}")  # fmt: skip
            elif setting is not None and setting.type.name != kind:
                self.error("TL1023", f"`media_session {key}` is a {kind}, not `{setting.type}`",
                           decl.span)  # fmt: skip
            return
        keys = SERVICE_SETTINGS.get(service)
        if keys is None:
            return
        if key not in keys:
            self.error("TL1023", f"`{service}` keeps no setting `{key}`", decl.span,
                       did_you_mean(key, keys) or f"known: {', '.join(keys)}")  # fmt: skip
        if setting is not None and setting.type.name != "bool":
            self.error("TL1023", f"`{service} {key}` is a boolean, not `{setting.type}`",
                       decl.span)  # fmt: skip

    def prefs(
        self, app: ir.AppModel, decl: ast.ProbeDecl, probe: ir.Probe, setting: ir.FieldDef | None
    ) -> None:
        """Checks a `prefs` probe: a setting, an app's own shared preferences file, a known
        form that fits the setting's type, and a stored form for every value it can take."""
        if any(p.target == probe.target for p in app.probes):
            self.error("TL1023", f"`{probe.target}` already has a probe", decl.span,
                       "a collection or setting is read back by one probe")  # fmt: skip
        path, own = probe.path or "", f"/data/data/{app.package}/shared_prefs/"
        if not (path.startswith(own) and path.endswith(".xml") and "/.." not in path):
            self.error("TL1023", f"`{path}` is not a shared preferences file of `{app.name}`",
                       decl.span, f'use "{own}NAME.xml" (an app reads only its own files)')  # fmt: skip
        if not probe.key:
            self.error("TL1023", "a `prefs` probe needs a non-empty key", decl.span)
        coll = app.collection(probe.target)
        if setting is None and coll is not None:
            self.prefs_records(app.record(coll.record), decl, probe)
            return
        if setting is None:
            return
        t = setting.type
        form = probe.form
        if form is not None and form not in PREFS_FORMS:
            self.error("TL1023", f"unknown shared preferences form `{form}`", decl.span,
                       did_you_mean(form, PREFS_FORMS) or f"use {', '.join(PREFS_FORMS)}")  # fmt: skip
        elif form in PREFS_UNITS and t.name != "duration":
            self.error("TL1023", f"`{form}` keeps a duration, not `{t}`", decl.span)
        for col in decl.columns or []:
            probe.values.append((col.name, self.string(col.column, col.span)))
        self.prefs_values(decl, probe, t)

    def prefs_records(
        self, record: ir.RecordDef | None, decl: ast.ProbeDecl, probe: ir.Probe
    ) -> None:
        """Checks a `prefs` probe of a collection: how the ids are named (`set`, `indexed`,
        `numbered`), and for each field an entry the record's id names, in a form that fits
        the field (see ``PREFS_ENTRY``)."""
        if probe.form not in PREFS_RECORDS:
            self.error("TL1023", "a `prefs` probe of a collection needs `set`, `indexed` or "
                       "`numbered` after its key", decl.span,
                       'e.g. `key "timers_list" set { label = "timer_label_{id}" }`')  # fmt: skip
        if not decl.columns:
            self.error("TL1023", "a `prefs` probe of a collection names an entry per field",
                       decl.span)  # fmt: skip
        for col in decl.columns or []:
            column = self.string(col.column, col.span)
            fdef = record.field(col.name) if record is not None else None
            if record is not None and fdef is None:
                self.error("TL1023", f"record `{record.name}` has no field `{col.name}`",
                           col.span, did_you_mean(col.name, [f.name for f in record.fields]))  # fmt: skip
            why = prefs_entry_problem(column, fdef, record)
            if why is not None:
                self.error("TL1023", why, col.span,
                           'e.g. "timer_setup_timet_{id} millis" or "timer_state_{id} as '
                           'running=1, paused=2"')  # fmt: skip
            probe.columns[col.name] = column
        for col in decl.columns or []:
            m = PREFS_ENTRY.fullmatch(probe.columns.get(col.name, ""))
            if m is not None and m["when"] and m["when"] not in probe.columns:
                self.error("TL1023", f"`{m['when']}` is not read by this probe", col.span,
                           f"`while {m['when']} is ...` needs an entry for `{m['when']}`")  # fmt: skip

    def prefs_values(self, decl: ast.ProbeDecl, probe: ir.Probe, t: ir.Type) -> None:
        """The value map of a `prefs` probe: enum members or `true` / `false`, each given a
        stored form, no stored form read as two values, integers for `bits`."""
        bits = probe.form == "bits"
        if not probe.values:
            if bits:
                self.error("TL1023", "`bits` needs the stored bits of each value", decl.span,
                           'e.g. `bits { true = "1024", false = "0" }`')  # fmt: skip
            return
        if t.name == "enum":
            names: tuple[str, ...] = tuple(t.members or ())
        elif t.name == "bool":
            names = ("true", "false")
        else:
            self.error("TL1023", f"a value map keeps an enum or a bool, not `{t}`", decl.span)
            return
        spans = {c.name: c.span for c in decl.columns or []}
        read: dict[str, str] = {}
        for value, stored in probe.values:
            span = spans.get(value, decl.span)
            if value not in names:
                self.error("TL1023", f"`{value}` is not a value of this setting", span,
                           did_you_mean(value, list(names)))  # fmt: skip
            if stored == "*" and value not in read.values():
                self.error("TL1023", f'`{value}` needs the form it is written in before "*"',
                           span, '"*" (any other stored text) is read, never written')  # fmt: skip
            if read.get(stored, value) != value:
                self.error("TL1023", f'"{stored}" would read as both `{read[stored]}` and '
                           f"`{value}`", span)  # fmt: skip
            read[stored] = value
            if bits and not stored.lstrip("-").isdigit():
                self.error("TL1023", f'`bits` keeps integers, not "{stored}"', span)
        missing = [n for n in names if n not in read.values()]
        if missing:
            self.error("TL1023", f"no stored form for {', '.join(f'`{m}`' for m in missing)}",
                       decl.span, "give each value of the setting the form the app writes")  # fmt: skip


def prefs_entry_problem(
    column: str, fdef: ir.FieldDef | None, record: ir.RecordDef | None
) -> str | None:
    """What is wrong with a field's entry of a `prefs` probe of a collection (None: nothing).

    >>> print(prefs_entry_problem("timer_label_", None, None))
    `timer_label_` names no entry by the record's id: write `{id}` where the id goes
    >>> prefs_entry_problem("timer_state_{id} as running=1", None, None) is None
    True
    """
    m = PREFS_ENTRY.fullmatch(column)
    if m is None:
        if "{id}" not in column:
            return f"`{column}` names no entry by the record's id: write `{{id}}` where the id goes"
        return (
            f"`{column}` is no entry of a record: KEY{{id}} [UNIT] [since previous] "
            "[while FIELD is V or V] [or default] [as V=S, V=S]"
        )
    if fdef is None:
        return None
    t = fdef.type
    if m["unit"] and t.name != "duration":
        return f"`{m['unit']}` keeps a duration, not `{t}`"
    if m["since"] and not (m["unit"] or t.name == "int"):
        return "`since previous` keeps a number or a duration"
    if m["key"] == "{id}" and (m["map"] or m["unit"] or t.name != "int"):
        return f"`{{id}}` alone is the record's id, a plain int, not `{t}`"
    values = [v for v, _ in prefs_entry_map(m["map"])]
    if t.name == "enum":
        missing = [v for v in t.members or () if v not in values]
        if missing:
            return f"no stored form for {', '.join(f'`{v}`' for v in missing)}"
    unknown = [v for v in values if t.name == "enum" and v not in (t.members or ())]
    if unknown:
        return f"`{unknown[0]}` is not a value of `{fdef.name}`"
    when = record.field(m["when"]) if m["when"] and record is not None else None
    if m["when"] and record is not None and when is None:
        return f"record `{record.name}` has no field `{m['when']}`"
    if when is not None and when.type.name not in ("enum", "text"):
        return f"`while` names an enum or a text field, not `{when.type}`"
    return None


_NOT_LITERAL = object()


def _literal_value(expr: ast.Expr) -> Any:
    """A (kind, text) literal or a list of them, or _NOT_LITERAL."""
    if isinstance(expr, ast.Lit):
        return decode(expr.kind, expr.text)
    if isinstance(expr, ast.Neg) and isinstance(expr.operand, ast.Lit):
        value, kind = decode(expr.operand.kind, expr.operand.text)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return -value, kind
        return _NOT_LITERAL
    if isinstance(expr, ast.ListLit):
        items = [_literal_value(i) for i in expr.items]
        if any(i is _NOT_LITERAL for i in items):
            return _NOT_LITERAL
        return items, "list"
    return _NOT_LITERAL


def _same_values(a: ir.Type, b: ir.Type) -> bool:
    """Whether two types hold the same values (an enum: the same members)."""
    return a.name == b.name and list(a.members or ()) == list(b.members or ())
