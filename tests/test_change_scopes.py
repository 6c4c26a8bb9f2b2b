"""`changes ... only on` and `changes ... nowhere`: the declaration, its checks, PhoneWorld
keeping to it, and the device checker counting what the episode's screens prove unchanged.

An app model may say on which screens the app lets a collection or setting change (or that it
never does). A phone that cannot read that state still knows it did not change along an
episode whose screens never showed one of those screens, so the clauses that watch it for
changes are decided; PhoneWorld refuses a change made anywhere else, so its world never drifts
from the model.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.differential import library, near_misses
from tasklang.envs.phoneworld.app import UndeclaredChange
from tasklang.envs.phoneworld.episode import Episode, run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.probes import quiet_state
from tasklang.verifiers.trajectory import Action, Observation, Step
from tasklang.verifiers.ui import Screen, touched, touches

RADIO = """\
app radio_demo {
  package "com.example.radio"
  record Station { name: text key  favourite: bool = false }
  record Genre { name: text key }
  collection stations: Station
  collection genres: Genre
  settings { volume: int = 5  bass: bool = false }
%s}
"""
DECLARED = (
    '  changes stations, volume only on text "Stations", id "com.example.radio:id/player"\n'
    "  changes genres nowhere\n"
    '  changes bass only by id "com.example.radio:id/bass_switch"\n'
)


def _compile(extra: str) -> tuple[dict[str, ir.AppModel], list[tuple[str, int, str]]]:
    result = Compiler().compile_text(RADIO % extra, path="radio.app")
    return dict(result.apps), [(d.code, d.span.line, d.message) for d in result.diagnostics]


def test_the_declaration_reaches_the_app_model() -> None:
    apps, diagnostics = _compile(DECLARED)
    assert diagnostics == []
    model = apps["radio_demo"]
    [stations] = model.changes_of("stations")
    assert model.changes_of("volume") == [stations] and not stations.by_tap
    assert [[(a.attr, a.value) for a in s.attrs] for s in stations.screens] == [
        [("text", "Stations")],
        [("id", "com.example.radio:id/player")],
    ]
    [genres] = model.changes_of("genres")
    assert genres.screens == []  # nowhere
    [bass] = model.changes_of("bass")
    assert bass.by_tap
    apps, _ = _compile("")
    assert apps["radio_demo"].changes_of("bass") == []  # not said: any step may change it


def test_a_name_may_have_a_screen_line_and_a_tap_line() -> None:
    apps, diagnostics = _compile(
        '  changes stations only on text "Stations"\n'
        '  changes stations only by id "com.example.radio:id/star"\n'
    )
    assert diagnostics == []
    assert [s.by_tap for s in apps["radio_demo"].changes_of("stations")] == [False, True]


def test_the_formatter_keeps_the_declaration() -> None:
    formatted, diagnostics = format_source(SourceFile("radio.app", RADIO % DECLARED))
    assert diagnostics == [] and formatted is not None
    assert DECLARED in formatted
    assert Compiler().compile_text(formatted, path="radio.app").diagnostics == []


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("  changes station nowhere\n", "has no collection or setting `station`"),
        ("  changes genres, genres nowhere\n", "where `genres` changes is said twice"),
        (
            '  changes genres nowhere\n  changes genres only on text "x"\n',
            "where `genres` changes is said twice",
        ),
        (
            '  changes genres only by text "y"\n  changes genres only by text "x"\n',
            "where `genres` changes is said twice",
        ),
    ],
)
def test_each_name_is_state_of_the_app_said_of_once(line: str, message: str) -> None:
    _, diagnostics = _compile(line)
    assert diagnostics and {code for code, _, _ in diagnostics} == {"TL1033"}
    assert message in diagnostics[0][2]


def test_a_half_written_declaration_is_a_located_syntax_error() -> None:
    _, diagnostics = _compile("  changes genres only on\n")
    assert [(code, line) for code, line, _ in diagnostics] == [("TL0002", 9)]


def test_changes_is_still_a_name_elsewhere() -> None:
    text = (RADIO % "").replace("favourite: bool", "changes: int = 0  favourite: bool")
    assert Compiler().compile_text(text, path="radio.app").diagnostics == []


# ---------------------------------------------------------------- PhoneWorld keeps to it
def _settings_episode(screens: list[ir.Selector], by_tap: bool = False) -> Episode:
    ep = Episode(library()["androidworld.system_wifi_turn_off"], 0)
    scope = ir.ChangeScope(names=["wifi_networks"], screens=screens, by_tap=by_tap)
    ep.phone.change_scopes[("settings", "wifi_networks")] = [scope]
    return ep


def _wifi_steps() -> list[dict[str, object]]:
    _, traj = run_reference(library()["androidworld.system_wifi_turn_off"], 0)
    out = []
    for step in traj.steps:
        assert step.action is not None
        out.append(step.action.model_dump(exclude_none=True))
    return out


def test_phoneworld_refuses_a_change_on_a_screen_the_model_does_not_name() -> None:
    nowhere = _settings_episode([ir.Selector(attrs=[ir.UiAttr(attr="text", value="Bluetooth")])])
    before = nowhere.phone.world().apps["settings"].collections["wifi_networks"]
    with pytest.raises(
        UndeclaredChange,
        match=r"settings\.wifi_networks changed where its model does not let it.*only on text",
    ):
        for action in _wifi_steps():
            nowhere.step(action)
    # the apps' data is as it was before the refused action
    assert nowhere.phone.world().apps["settings"].collections["wifi_networks"] == before


def test_a_tap_elsewhere_on_the_same_screen_may_not_change_what_changes_only_by_a_tap() -> None:
    """`only by`: the Wi-Fi switch's page is shown, but the change needs a tap on an element
    the declaration names; a tap on the switch's row is one."""
    elsewhere = _settings_episode([ir.Selector(attrs=[ir.UiAttr(attr="text", value="Nothing")])])
    elsewhere.phone.change_scopes[("settings", "wifi_networks")][0].by_tap = True
    with pytest.raises(UndeclaredChange, match="only by text"):
        for action in _wifi_steps():
            elsewhere.step(action)
    row = "//node[@clickable='true'][.//node[@text='Wi-Fi']]"
    switch = _settings_episode([ir.Selector(attrs=[ir.UiAttr(attr="xpath", value=row)])], True)
    for action in _wifi_steps():
        switch.step(action)
    assert switch.verdict().success


def test_the_library_declares_where_settings_lists_change() -> None:
    settings = library()["settings.set_volumes"].apps["settings"]
    for name in ("wifi_networks", "app_notifications"):
        assert [(s.screens != [], s.by_tap) for s in settings.changes_of(name)] == [(True, False)]
    # the devices' pages, and the taps that turn Bluetooth off elsewhere (airplane mode, Quick
    # Settings)
    lines = settings.changes_of("bluetooth_devices")
    assert [(s.screens != [], s.by_tap) for s in lines] == [(True, False), (True, True)]
    assert settings.changes_of("brightness") == []
    [films] = library()["mini.movies_sold_out"].apps["movies"].changes_of("films")
    assert films.screens == []


def test_the_reference_solutions_keep_to_the_declarations() -> None:
    """Every library task whose apps declare where their state changes runs its reference
    solution (two instances) without a change anywhere else."""
    for compiled in library().values():
        if any(model.changes for model in compiled.apps.values()):
            for seed in (0, 1):
                verdict, _ = run_reference(compiled, seed)
                assert verdict.success, (compiled.task.id, seed)


# ---------------------------------------------------------------- what the screens prove
def _quiet(task: str) -> set[tuple[str, str]]:
    compiled = library()[task]
    _, traj = run_reference(compiled, 0)
    return set(quiet_state(compiled, traj.steps))


def test_an_episode_that_never_shows_the_wifi_pages_leaves_the_networks_unchanged() -> None:
    volumes = _quiet("settings.set_volumes")
    assert {("settings", "wifi_networks"), ("settings", "bluetooth_devices")} <= volumes
    assert ("settings", "app_notifications") in volumes
    wifi = _quiet("androidworld.system_wifi_turn_off")
    assert ("settings", "wifi_networks") not in wifi  # the episode was on the Wi-Fi page
    assert ("settings", "app_notifications") in wifi


def test_the_network_page_leaves_the_bluetooth_devices_unless_airplane_mode_is_tapped() -> None:
    """Network & internet lists Airplane mode among its rows: the Wi-Fi episodes pass it, and
    only a tap on that row may drop the devices' connections."""
    for task in ("androidworld.system_wifi_turn_on", "settings.ensure_wifi_on"):
        assert ("settings", "bluetooth_devices") in _quiet(task), task
    compiled = library()["settings.ensure_wifi_on"]
    _, traj = run_reference(compiled, 0)
    network = next(s for s in traj.steps if "Airplane mode" in (s.observation.ui_xml or ""))
    screen = network.observation.ui_xml or ""
    row = re.search(r'<node [^>]*text="Airplane mode"[^>]*bounds="\[(\d+),(\d+)\]', screen)
    assert row is not None
    x, y = int(row[1]) + 5, int(row[2]) + 5
    for action, quiet in (("click", False), ("scroll", True)):
        tap = network.model_copy(update={"action": Action(action_type=action, x=x, y=y)})
        assert (("settings", "bluetooth_devices") in quiet_state(compiled, [tap])) is quiet


def test_a_quick_settings_tile_that_names_bluetooth_is_a_way_in() -> None:
    compiled = library()["settings.ensure_wifi_on"]
    shade = (
        '<hierarchy><node package="com.android.systemui" clickable="true" '
        'content-desc="Bluetooth. Off." bounds="[0,0][300,300]">'
        '<node package="com.android.systemui" text="Bluetooth" bounds="[0,200][300,260]"/>'
        "</node></hierarchy>"
    )
    tap = Step(index=0, action=Action(action_type="click", x=100, y=100),
               observation=Observation(ui_xml=shade))  # fmt: skip
    assert ("settings", "bluetooth_devices") not in quiet_state(compiled, [tap])


def test_the_coffee_home_page_only_leads_to_the_stores() -> None:
    """While no store is chosen the home page shows "Select a store": a step there leads to
    the stores' list, where a store is picked, and picks none itself."""
    assert ("coffee", "default_store") in _quiet("mini.coffee_cancel_duplicate")
    stores = (
        '<hierarchy><node resource-id="store-item" clickable="true" bounds="[0,0][300,200]">'
        '<node resource-id="store-name" text="Riverside" bounds="[0,0][300,90]"/>'
        "</node></hierarchy>"
    )
    pick = Step(index=0, action=Action(action_type="click", x=100, y=50),
                observation=Observation(ui_xml=stores))  # fmt: skip
    compiled = library()["mini.coffee_cancel_duplicate"]
    assert ("coffee", "default_store") not in quiet_state(compiled, [pick])


def test_wechats_default_payment_method_changes_only_in_its_own_dialog() -> None:
    """A transfer's pay sheet chooses a method for that payment alone; the default is chosen
    in the dialog Payment Settings' row opens."""
    assert ("wechat", "payment_method") in _quiet("wechat.transfer_money")
    ep = Episode(library()["wechat.transfer_money"], 0)
    for label in ("Me", "Services", "Wallet", "Payment Settings", "Default Payment Method"):
        screen = Screen.from_parts(ep.xml(), None)
        row = next(e for e in screen.elements if e.text == label and e.bounds is not None)
        ep.step({"action_type": "click", "index": row.index})
    assert "Bank Card" in ep.xml()  # the dialog's choices
    compiled = library()["wechat.transfer_money"]
    assert ("wechat", "payment_method") not in quiet_state(compiled, ep.steps)


def test_an_accounts_holder_is_the_providers_record_even_where_accounts_change() -> None:
    quiet = _quiet("mini.bills_unknown_account")  # the episode tries to add an account
    assert ("bills", "accounts") not in quiet and ("bills", "accounts.holder") in quiet


def test_a_report_touches_nothing() -> None:
    """`status` and `answer` end the episode on whatever screen is shown: no way in."""
    compiled = library()["settings.ensure_wifi_on"]
    _, traj = run_reference(compiled, 0)
    wifi_page = next(s for s in traj.steps if 'text="Wi-Fi"' in (s.observation.ui_xml or ""))
    for kind, quiet in (("status", True), ("answer", True), ("click", False)):
        step = wifi_page.model_copy(update={"action": Action(action_type=kind, x=1, y=1)})
        assert (("settings", "wifi_networks") in quiet_state(compiled, [step])) is quiet, kind


def test_only_the_taps_that_touch_the_named_elements_count() -> None:
    compiled = library()["androidworld.system_wifi_turn_off"]
    _, traj = run_reference(compiled, 0)
    row = "//node[@clickable='true'][.//node[@text='Wi-Fi']]"
    for value, quiet in ((row, False), ("//node[@text='Use Bluetooth']", True)):
        scope = ir.ChangeScope(
            names=["wifi_networks"],
            screens=[ir.Selector(attrs=[ir.UiAttr(attr="xpath", value=value)])],
            by_tap=True,
        )
        apps = dict(compiled.apps)
        apps["settings"] = apps["settings"].model_copy(update={"changes": [scope]})
        declared = compiled.model_copy(update={"apps": apps})
        assert (("settings", "wifi_networks") in quiet_state(declared, traj.steps)) is quiet


def test_a_step_without_its_screen_proves_only_what_changes_nowhere() -> None:
    compiled = library()["mini.movies_sold_out"]
    _, traj = run_reference(compiled, 0)
    blind = [traj.steps[0].model_copy(update={"observation": Observation()}), *traj.steps[1:]]
    quiet = quiet_state(compiled, blind)
    assert ("movies", "films") in quiet and ("movies", "cinemas") in quiet
    assert all(not s.screens for a, n in quiet for s in compiled.apps[a].changes_of(n))
    settings = library()["settings.set_volumes"]
    _, traj = run_reference(settings, 0)
    blind = [s.model_copy(update={"observation": Observation()}) for s in traj.steps]
    assert quiet_state(settings, blind) == frozenset()
    # a phone read with no record of what was done on it (`tasklang device check` with no
    # trajectory): only what its app never changes is known unchanged
    assert quiet_state(compiled, None) == quiet and quiet_state(settings, None) == frozenset()
    assert ("settings", "wifi_networks") in quiet_state(settings, [])  # no steps: none done


def test_the_phone_decides_guards_over_state_it_cannot_read(
    decided_on_a_phone: Callable[[str], None],
) -> None:
    """`only changed settings.*_volume`-style guards watch the Wi-Fi and Bluetooth lists, which a
    phone reads only from their pages: the episode's screens decide them."""
    for task in ("settings.set_volumes", "androidworld.system_brightness_max"):
        decided_on_a_phone(task)


def test_near_misses_leave_the_state_the_screens_prove_unchanged() -> None:
    compiled = library()["mini.movies_adjacent_seats"]
    _, traj = run_reference(compiled, 0)
    final = traj.final.snapshot
    assert final is not None
    quiet = quiet_state(compiled, traj.steps)
    every = near_misses(compiled, final, random.Random(0), 100)
    kept = near_misses(compiled, final, random.Random(0), 100, quiet)
    touched = {name for name, _ in every} - {name for name, _ in kept}
    # the listings never change, and an order's status only in the refund dialog
    assert touched and all(
        ".films[" in n or ".cinemas[" in n or (".orders[" in n and n.endswith(".status"))
        for n in touched
    )
    assert any(".orders[" in n for n in touched)


def test_random_walks_keep_to_the_declarations() -> None:
    """Beyond the reference solutions: random taps, long presses, typing, Enter and Back in
    every task whose apps declare where their state changes. A change made before any way in
    to it was taken would raise ``UndeclaredChange``; the walks do change declared state."""
    changed: set[tuple[str, str]] = set()
    for compiled in library().values():
        if not any(model.changes for model in compiled.apps.values()):
            continue
        rng = random.Random(compiled.task.id)
        ep = Episode(compiled, 0)
        for _ in range(40):
            action = _random_action(rng, Screen.from_parts(ep.xml(), None))
            before = dict(ep.phone.state)
            ep.step(action)
            for app, name in ep.phone.change_scopes:
                old, new = before.get(app), ep.phone.state.get(app)
                if old is None or new is None or old is new:
                    continue
                if (old.collections.get(name), old.settings.get(name)) != (
                    new.collections.get(name),
                    new.settings.get(name),
                ):
                    changed.add((app, name))
            if ep.done:
                break
    assert len(changed) >= 2, changed  # measured: maps.saved and yelp.bookmarks


def _random_action(rng: random.Random, screen: Screen) -> dict[str, object]:
    taps = [e for e in screen.elements if e.clickable and e.bounds is not None]
    roll = rng.random()
    if roll < 0.08 or not taps:
        return {"action_type": "navigate_back"}
    if roll < 0.12:
        return {"action_type": "keyboard_enter"}
    if roll < 0.16:
        return {"action_type": "input_text", "text": rng.choice(["a", "Home", "5"])}
    kind = "long_press" if roll > 0.95 else "click"
    return {"action_type": kind, "index": rng.choice(taps).index}


def test_chrome_bookmarks_change_only_from_the_menu_star_and_the_manager() -> None:
    """A page bookmarked with the app menu's star keeps to the declaration; an episode that
    never opens the menu, the bookmarks manager or the editor leaves the bookmarks unchanged."""
    compiled = library()["cross.chrome_call_listed_number"]
    _, traj = run_reference(compiled, 0)
    assert ("chrome", "bookmarks") in quiet_state(compiled, traj.steps)
    ep = Episode(compiled, 0)
    for step in traj.steps[:4]:  # Chrome open on a page
        assert step.action is not None
        ep.step(step.action.model_dump(exclude_none=True))

    def tap(rid: str) -> None:
        screen = Screen.from_parts(ep.xml(), None)
        found = next(e for e in screen.elements if e.resource_id == rid)
        ep.step({"action_type": "click", "index": found.index})

    tap("com.android.chrome:id/menu_button")
    tap("com.android.chrome:id/bookmark_this_page_id")
    [mark] = ep.phone.state["chrome"].collections["bookmarks"]
    assert mark["url"].endswith(".html") and ("chrome", "bookmarks") in ep.phone.opened


def test_a_tap_on_an_alert_dialog_touches_nothing_under_it() -> None:
    """Amazon's "Filters" dialog sits over search results that each have an "Add to cart":
    a tap on the dialog's choice is no tap on the cart's button beneath it."""
    compiled = library()["shopping.most_reviewed_in_band"]
    _, traj = run_reference(compiled, 0)
    on_dialog = [
        s for s in traj.steps
        if s.action is not None and s.action.index is not None
        and "android:id/parentPanel" in (s.observation.ui_xml or "")
    ]  # fmt: skip
    assert on_dialog
    cart = ir.Selector(attrs=[ir.UiAttr(attr="text", value="Add to cart")])
    beneath = 0
    for step in on_dialog:
        assert step.action is not None
        screen = Screen.from_parts(step.observation.ui_xml, None)
        hit = touched(screen, step.action.index, None, None)
        assert hit and screen.select(cart)  # the button is on the page, under the dialog
        assert not touches(screen, cart, step.action.index, None, None)
        # the same tap on the page with no dialog over it touches it
        bare = Screen.from_parts(step.observation.ui_xml.replace("parentPanel", "panel"), None)
        x, y = _centre(bare, step.action.index)
        under = [e for e in bare.select(cart) if e.contains(x, y)]
        assert touches(bare, cart, None, x, y) == bool(under)
        beneath += bool(under)
    assert beneath  # measured: the dialog's choices lie over a result's "Add to cart"
    assert ("shopping", "cart") in quiet_state(compiled, traj.steps)


def _centre(screen: Screen, index: int) -> tuple[float, float]:
    bounds = screen.element(index).bounds
    assert bounds is not None
    return (bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2
