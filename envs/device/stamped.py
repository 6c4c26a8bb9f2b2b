"""Fields an app sets from a setting when it makes a record (`FIELD = "SETTING when added"` in
a files probe): a photo's lens is the camera app's `lens` setting when the photo was taken.

No listing shows such a field, but a phone probed after every step reads the setting each time:
a record that first shows in the reading after a step took the setting's value if that step was
taken in the app (another app may have copied a file there) and the reading before that step
(or the instance's world, before the first) and the one after it agree on the setting. The
reading at the end follows the last step. The app model says the field never changes
afterwards (`changes COLL.FIELD nowhere`), so a record the instance's world already held keeps
the value the world gave it. Where a record's value cannot be told so (the setting changed in
the step that made it, or another app made it), the field is left out of that record in every
reading: it is read only in the records that hold it (``Coverage.partly_read``), never
guessed. Where a reading did not read the setting or the collection, the field stays unread
for the whole episode.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tasklang import ir
from tasklang.appmodel import STAMPED
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.state import key_of

Key = tuple[str, str]


@dataclass(frozen=True)
class Stamp:
    """One field set from a setting when its record is made."""

    app: str
    package: str  # the app's: a record made in a step taken elsewhere is not its own
    collection: str
    field: str
    setting: str
    key: ir.FieldDef  # the records' key field


def stamps(compiled: ir.CompiledTask) -> list[Stamp]:
    """Every `"SETTING when added"` field of the task's apps' files probes."""
    out = []
    for name in sorted(compiled.apps):
        app = compiled.apps[name]
        for p in app.probes:
            rdef = app.record_of(p.target) if p.source == "files" else None
            key = rdef.key_field() if rdef is not None else None
            if key is None:
                continue
            for fname, column in p.columns.items():
                m = STAMPED.fullmatch(column)
                if m is not None:
                    out.append(Stamp(name, app.package, p.target, fname, m[1], key))
    return out


Field = tuple[str, str, str]  # (app, collection, field)


def stamp(
    compiled: ir.CompiledTask,
    initial: WorldSnapshot | None,
    states: list[WorldSnapshot],
    final: WorldSnapshot,
    packages: list[str | None],
) -> tuple[list[WorldSnapshot], WorldSnapshot, set[Field], set[Field]]:
    """The readings after each step and at the end with every stamped field filled in each
    record whose value can be told; the (app, collection, field) so filled; and those of them
    some record's value could not be told for (left out of that record in every reading).
    ``packages``: the app in the foreground when each step's action was taken."""
    done: set[Field] = set()
    untold: set[Field] = set()
    if initial is None or len(packages) != len(states):
        return states, final, done, untold
    taken_in = [*packages, packages[-1] if packages else None]
    for s in stamps(compiled):
        filled = _filled(s, initial, [*states, final], taken_in)
        if filled is None:
            continue
        (*states, final), some_untold = filled
        done.add((s.app, s.collection, s.field))
        if some_untold:
            untold.add((s.app, s.collection, s.field))
    return states, final, done, untold


_UNTOLD = object()  # a record whose value cannot be told


def _filled(
    s: Stamp, initial: WorldSnapshot, readings: list[WorldSnapshot], taken_in: list[str | None]
) -> tuple[list[WorldSnapshot], bool] | None:
    start = initial.apps.get(s.app)
    if start is None or s.setting not in start.settings:
        return None
    known: dict[str, Any] = {
        key_of(r, s.key): r.get(s.field) for r in start.collections.get(s.collection, [])
    }
    before = start.settings[s.setting]
    out = []
    untold = False
    for reading, package in zip(readings, taken_in, strict=True):
        state = reading.apps.get(s.app)
        if (
            state is None
            or s.setting not in state.settings
            or s.collection not in state.collections
        ):
            return None
        now = state.settings[s.setting]
        records, held = [], {}
        for r in state.collections[s.collection]:
            k = key_of(r, s.key)
            if k not in known:  # made in the step this reading follows: the setting then,
                # unless it changed in that step or another app made the record
                known[k] = now if now == before and package == s.package else _UNTOLD
            held[k] = known[k]
            if known[k] is _UNTOLD:
                untold = True
                records.append({f: v for f, v in r.items() if f != s.field})
            else:
                records.append({**r, s.field: known[k]})
        known, before = held, now  # a record gone is forgotten: its key may come back anew
        apps = dict(reading.apps)
        collections = {**state.collections, s.collection: records}
        apps[s.app] = state.model_copy(update={"collections": collections})
        out.append(reading.model_copy(update={"apps": apps}))
    return out, untold
