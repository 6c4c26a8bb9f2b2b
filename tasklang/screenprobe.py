"""`screen` probes (AST -> IR) and their checks.

A `screen` probe reads state an app shows only on screen: after the episode the device
checker opens the app afresh, taps its way to one page (``tap SELECTOR, ...``) and reads it,
scrolling to the end. ``rows SELECTOR { field = SPOT, ... }`` reads one record per element the
selector matches; ``value SPOT`` reads a setting. A spot is an element (inside the row) and
optionally the text around the value (``format "Order No. {}"``; ``{*}`` is other text, as in
``"Row {} Seat {*}"``) and the text shown for each value of an enum or a bool (``labels {
placed = "Placed", ... }``; a bool without labels is the state of a switch or check box). A value with no label cannot be told apart on screen: a page that
shows one cannot be read. ``or { "No bill due" = $0.00, "Balance {*}" = unknown }`` lists other
text the spot may show and the value each stands for; ``unknown``: a row that shows it does not
show the field, and is read without it.
"""

from __future__ import annotations

from tasklang import ast, ir
from tasklang.diagnostics import did_you_mean
from tasklang.literals import LiteralError, decode
from tasklang.lower import Reporter
from tasklang.source import Span
from tasklang.types import coerce_literal

# the scalar types a screen can show exactly as text
SCREEN_TYPES = (
    "text", "int", "number", "bool", "money", "phone", "email", "date", "time", "datetime",
    "enum",
)  # fmt: skip


def build_screen_probe(
    rep: Reporter,
    app: ir.AppModel,
    decl: ast.ProbeDecl,
    probe: ir.Probe,
    record: ir.RecordDef | None,
    setting: ir.FieldDef | None,
) -> None:
    """Fill ``probe`` from a `screen` declaration, reporting what does not fit the model."""
    probe.steps = [step(rep, s) for s in decl.steps]
    if setting is not None:
        if decl.value is None:
            rep.error("TL1023", "a `screen` probe of a setting reads one `value`", decl.span,
                      f'e.g. `value id "{setting.name}"`')  # fmt: skip
            return
        probe.spots[setting.name] = spot(rep, decl.value, setting.type, f"`{setting.name}`")
        if decl.value.names is not None:
            rep.error("TL1023", f"setting `{setting.name}` is read as shown: `names` reads a "
                      "record's key for a field", decl.value.names.span)  # fmt: skip
        if any(f.unknown or f.among for f in probe.spots[setting.name].forms):
            rep.error("TL1023", f"setting `{setting.name}` is one value: a page that does not "
                      "show it is not the page to read it from", decl.value.span,
                      "drop the `unknown` forms and those of several values, or read the "
                      "setting where it is always shown")  # fmt: skip
        return
    if decl.selector is None or decl.fields is None:
        rep.error("TL1023", "a `screen` probe of a collection reads `rows`", decl.span,
                  'e.g. `rows id "item" { name = id "item-name" }`')  # fmt: skip
        return
    probe.selector = selector(rep, decl.selector)
    if decl.most is not None:
        if decl.most < 1:
            rep.error("TL1023", "`at most` needs a page that lists one row at least", decl.span)
        probe.most = decl.most
    assert record is not None
    for f in decl.fields:
        fdef = _field_of(rep, record, probe, f)
        if fdef is None:
            continue
        probe.spots[f.name] = spot(rep, f.spot, fdef.type, f"field `{f.name}`")
        names(rep, app, f, fdef, probe.spots[f.name])
        read = probe.spots[f.name]
        if fdef.key and (read.names is not None or any(x.unknown or x.among for x in read.forms)):
            rep.error("TL1023", f"field `{f.name}` is the key: a row read without it could not "
                      "be told from another", f.span, "read the key from a spot every row shows")  # fmt: skip
    for group in decl.each:
        each(rep, decl, group, probe, record)
    if decl.upcoming is not None:
        upcoming(rep, decl, probe, record)
    if decl.details is not None:
        details(rep, app, decl, probe, record)


def each(
    rep: Reporter,
    decl: ast.ProbeDecl,
    group: ast.ScreenGroup,
    probe: ir.Probe,
    record: ir.RecordDef,
) -> None:
    """``each SELECTOR { field = SPOT, ... }``: the page lists groups (a list of lists), and a
    tap on one opens the page of its rows, or of the next `each`'s groups (a cinema's films,
    each film's days); the fields every row under a group holds are read on the group's
    element. A group is found again by the first of them, which every group must show; the
    key is read on the rows (a row's own page, `details`, opens from its group's page). A
    datetime read on a group and on the rows is read in two parts: the group shows its day
    (a day chip), the row its time of day."""
    level = ir.ScreenGroup(selector=selector(rep, group.selector), span=group.span)
    probe.each.append(level)
    if not group.fields:
        rep.error("TL1023", "`each` finds each group again by the first field it reads: it "
                  "reads at least one", group.span,
                  "read what tells the groups apart, e.g. a list's name")  # fmt: skip
    for n, f in enumerate(group.fields):
        fdef = record.field(f.name)
        day = (fdef is not None and fdef.type.name == "datetime" and f.name in probe.spots
               and f.name not in probe.group_spots())  # fmt: skip
        if not day:
            fdef = _field_of(rep, record, probe, f)
        if fdef is None:
            continue
        if fdef.key:
            rep.error("TL1023", f"field `{f.name}` is the key: the rows of a group each have "
                      "their own, read on the rows", f.span)  # fmt: skip
            continue
        if fdef.type.name == "list" or f.spot.names is not None:
            rep.error("TL1023", f"field `{f.name}`: a group shows one value its rows all hold, "
                      "not a list nor a name", f.span)  # fmt: skip
            continue
        read = spot(rep, f.spot, ir.Type(name="date") if day else fdef.type, f"field `{f.name}`")
        if (n == 0 or day) and any(x.unknown or x.among for x in read.forms):
            what = "is read in two parts" if day else "finds each group again"
            rep.error("TL1023", f"field `{f.name}` {what}: every group must show one value of "
                      "it", f.span, "drop its `unknown` forms and those of several values")  # fmt: skip
        level.spots[f.name] = read


def upcoming(rep: Reporter, decl: ast.ProbeDecl, probe: ir.Probe, record: ir.RecordDef) -> None:
    """``rows SELECTOR upcoming FIELD``: the page lists only the records whose datetime
    ``FIELD`` is after the phone's clock (the showtimes not yet started), so a record it does
    not list is known to lie at or before it, and the collection is read in part."""
    name = decl.upcoming
    assert name is not None
    fdef = _known_field(rep, record, name, decl.span)
    if fdef is None:
        return
    if fdef.type.name != "datetime":
        rep.error("TL1023", f"`upcoming {name}`: field `{name}` is `{fdef.type}`, and the "
                  "phone's clock orders datetimes", decl.span)  # fmt: skip
        return
    if name not in probe.spots:
        rep.error("TL1023", f"`upcoming {name}`: the rows must read `{name}`, which says "
                  "where a record lies against the clock", decl.span)  # fmt: skip
        return
    probe.upcoming = name


def names(
    rep: Reporter, app: ir.AppModel, f: ast.ScreenField, fdef: ir.FieldDef, out: ir.ScreenSpot
) -> None:
    """``names COLLECTION by F or G``: the spot shows how a record of another collection of
    the app is named (its first field of F, G that is set), and reads that record's key, so
    the field holds keys of that collection."""
    decl = f.spot.names
    if decl is None:
        return
    rdef = app.record_of(decl.collection)
    if app.collection(decl.collection) is None or rdef is None:
        rep.error("TL1023", f"app `{app.name}` has no collection `{decl.collection}`",
                  decl.span, did_you_mean(decl.collection, [c.name for c in app.collections]))  # fmt: skip
        return
    key = rdef.key_field()
    if key is None:
        rep.error("TL1023", f"the records of `{app.name}.{decl.collection}` have no key for "
                  f"field `{f.name}` to read", decl.span,
                  f"mark with `key` the field of `{rdef.name}` that tells its records apart")  # fmt: skip
        return
    if fdef.type.name != key.type.name:
        rep.error("TL1023", f"field `{f.name}` is `{fdef.type}`, and `{decl.collection}` is "
                  f"keyed by `{key.type}`: it cannot hold their keys", decl.span)  # fmt: skip
    for by in decl.by:
        named = rdef.field(by)
        if named is None:
            rep.error("TL1023", f"record `{rdef.name}` has no field `{by}`", decl.span,
                      did_you_mean(by, [x.name for x in rdef.fields]))  # fmt: skip
            return
        if named.type.name != "text":
            rep.error("TL1023", f"field `{by}` of `{rdef.name}` is `{named.type}`: a name is "
                      "text", decl.span)  # fmt: skip
            return
    if len(set(decl.by)) != len(decl.by):
        rep.error("TL1023", f"a field is named twice in `by {' or '.join(decl.by)}`", decl.span)
        return
    out.names = ir.ScreenNames(collection=decl.collection, by=list(decl.by), span=decl.span)


def details(
    rep: Reporter, app: ir.AppModel, decl: ast.ProbeDecl, probe: ir.Probe, record: ir.RecordDef
) -> None:
    """``details [tap SELECTOR] { field = SPOT, ... }``: fields read on each record's own
    page, which a tap on its row opens (on the row's element SELECTOR finds, where the row
    opens its page from a link). The row is found again by its key, so the rows must read
    the key; the rows of a collection without a key are found by all they read, which no
    two may read alike."""
    key = record.key_field()
    if key is not None and key.name not in probe.spots:
        rep.error("TL1023", "`details` finds each row again by its key: the rows must read "
                  f"the key of `{record.name}`", decl.span,
                  "read the key in the rows, or drop `details`")  # fmt: skip
    if key is None and not probe.spots:
        rep.error("TL1023", f"`details` finds each row again by what it reads (`{record.name}` "
                  "has no key): the rows must read a field", decl.span)  # fmt: skip
    if decl.details_tap is not None:
        probe.details_tap = selector(rep, decl.details_tap)
    for f in decl.details or []:
        fdef = _field_of(rep, record, probe, f)
        if fdef is None:
            continue
        if fdef.type.name == "list":
            rep.error("TL1023", f"field `{f.name}` is a list: `details` reads one value of a "
                      "row's page", f.span)  # fmt: skip
            continue
        probe.details[f.name] = spot(rep, f.spot, fdef.type, f"field `{f.name}`")
        names(rep, app, f, fdef, probe.details[f.name])


def _field_of(
    rep: Reporter, record: ir.RecordDef, probe: ir.Probe, f: ast.ScreenField
) -> ir.FieldDef | None:
    """The record's field a spot reads (None, reported: no such field, or one read already)."""
    fdef = _known_field(rep, record, f.name, f.span)
    if fdef is None:
        return None
    if f.name in probe.spots or f.name in probe.details or f.name in probe.group_spots():
        rep.error("TL1023", f"field `{f.name}` is read twice", f.span)
        return None
    return fdef


def _known_field(rep: Reporter, record: ir.RecordDef, name: str, span: Span) -> ir.FieldDef | None:
    """The record's field ``name`` (None, reported: the record has no such field)."""
    fdef = record.field(name)
    if fdef is None:
        rep.error("TL1023", f"record `{record.name}` has no field `{name}`", span,
                  did_you_mean(name, [x.name for x in record.fields]))  # fmt: skip
    return fdef


def step(rep: Reporter, decl: ast.ScreenStep) -> ir.ScreenStep:
    if decl.selector is not None:
        return ir.ScreenStep(action="tap", selector=selector(rep, decl.selector),
                             if_shown=decl.if_shown, span=decl.span)  # fmt: skip
    text = rep.string(decl.text or '""', decl.span)
    return ir.ScreenStep(action="type", text=text, span=decl.span)


def selector(rep: Reporter, sel: ast.Selector) -> ir.Selector:
    return ir.Selector(
        attrs=[
            ir.UiAttr(attr=a.attr, value=rep.string(a.value, a.span))  # type: ignore[arg-type]
            for a in sel.attrs
        ]
    )


def spot(rep: Reporter, decl: ast.ScreenSpot, t: ir.Type, what: str) -> ir.ScreenSpot:
    out = ir.ScreenSpot(selector=selector(rep, decl.selector), span=decl.span)
    item = t.item if t.name == "list" and t.item is not None else t
    if item.name not in SCREEN_TYPES:
        rep.error("TL1023", f"{what} is `{t}`, which a screen probe cannot read", decl.span,
                  f"a screen shows {', '.join(SCREEN_TYPES)} values, or lists of them")  # fmt: skip
    if decl.format is not None:
        out.format = rep.string(decl.format, decl.span)
        if out.format.count("{}") != 1:
            rep.error("TL1023", f'the format of {what} needs one `{{}}` for the value, not "'
                      f'{out.format}"', decl.span, 'e.g. `format "Order No. {}"`')  # fmt: skip
        elif ("{}{*}" in out.format or "{*}{}" in out.format) and not decl.labels:
            # (with labels, the value is the label that fits)
            rep.error("TL1023", f"the format of {what} does not say where the value ends",
                      decl.span, "put text between `{}` and `{*}`, or give the value labels")  # fmt: skip
    labels(rep, decl, out, item, what)
    forms(rep, decl, out, t, what)
    return out


def forms(rep: Reporter, decl: ast.ScreenSpot, out: ir.ScreenSpot, t: ir.Type, what: str) -> None:
    """``or { "TEXT" = VALUE, "TEXT" = unknown }``: other text the spot may show, and what
    each stands for."""
    if not decl.forms:
        return
    if t.name == "list":
        rep.error("TL1023", f"{what} is a list: each element it shows is one item, read "
                  "by its format", decl.forms[0].span)  # fmt: skip
        return
    seen = set(out.labels.values())
    for form in decl.forms:
        text = rep.string(form.text, form.span)
        if "{}" in text:
            rep.error("TL1023", f'"{text}" has a `{{}}`: only the format shows the value',
                      form.span, 'write the value after `=`, e.g. `"No bill due" = $0.00`')  # fmt: skip
            continue
        if text in seen:
            rep.error("TL1023", f'"{text}" is read two ways by {what}', form.span)
            continue
        seen.add(text)
        if form.name is not None:
            if form.name != "unknown":
                rep.error("TL1023", f"`{form.name}` is not a value", form.span,
                          "write a literal of the field's type, or `unknown` where a row "
                          "that shows this text does not show the field")  # fmt: skip
                continue
            if form.more:
                rep.error("TL1023", f'"{text}" is `unknown` or a value, not both', form.span,
                          "drop the values: `unknown` already says any value may be shown")  # fmt: skip
                continue
            out.forms.append(ir.ScreenForm(text=text, unknown=True, span=form.span))
            continue
        assert form.value is not None
        values = []
        for lit in (form.value, *form.more):
            try:
                values.append(coerce_literal(decode(lit.kind, lit.text), t))
            except (LiteralError, ValueError) as exc:
                rep.error("TL1023", f'"{text}" stands for a value that does not fit {what} '
                          f"(`{t}`): {exc}", form.span)  # fmt: skip
                break
        else:
            if any(values.count(v) > 1 for v in values):
                rep.error("TL1023", f'"{text}" names a value twice', form.span)
            elif len(values) > 1:
                out.forms.append(ir.ScreenForm(text=text, among=values, span=form.span))
            else:
                out.forms.append(ir.ScreenForm(text=text, value=values[0], span=form.span))


def labels(rep: Reporter, decl: ast.ScreenSpot, out: ir.ScreenSpot, t: ir.Type, what: str) -> None:
    """The text shown for each value: every value of an enum or a bool has its own."""
    if t.name == "enum":
        names: tuple[str, ...] = tuple(t.members or ())
    elif t.name == "bool":
        names = ("true", "false")
    elif decl.labels is not None:
        rep.error("TL1023", f"labels name the values of an enum or a bool, not `{t}`", decl.span)
        return
    else:
        return
    if decl.labels is None:
        return  # an enum's members are shown as they are named; a bool is a switch's state
    shown: dict[str, str] = {}
    for label in decl.labels:
        text = rep.string(label.column, label.span)
        if label.name not in names:
            rep.error("TL1023", f"`{label.name}` is not a value of {what}", label.span,
                      did_you_mean(label.name, list(names)))  # fmt: skip
        elif label.name in out.labels:
            rep.error("TL1023", f"`{label.name}` has two labels", label.span)
        elif text in shown:
            rep.error("TL1023", f'"{text}" would read as both `{shown[text]}` and '
                      f"`{label.name}`", label.span)  # fmt: skip
        else:
            out.labels[label.name] = text
            shown[text] = label.name
