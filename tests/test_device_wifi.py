"""The saved Wi-Fi networks (`service "wifi"` probes): the service's output formats, a
collection listed in part (every network not listed is unsaved and not connected), the
three-valued rules that decide a clause on it, and the library's Wi-Fi tasks on PhoneWorld."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device import wifi
from tasklang.envs.device.check import not_kept, probe
from tasklang.envs.device.differential import judge, library, start_reading, step_readings
from tasklang.envs.device.parse import OutputError
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import coverage, probe_specs, records_of
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.evaluate import Env, Unknown, evaluate
from tasklang.verifiers.probes import clause_problem, decide_declared, kept_state
from tasklang.verifiers.snapshot import AppState, WorldSnapshot

# `cmd wifi list-networks` on Android 13: ids in 12 columns, SSIDs unquoted in 32, the types
# the service added itself marked `^`; an SSID longer than 32 columns pushes the types right
LISTED = (
    "Network Id      SSID                         Security type\n"
    "0            Office-Main                      wpa3-sae\n"
    "1            Home Net 5G                      wpa2-psk/wpa3-sae^\n"
    "2            Cafe Guest                       open/owe^\n"
    "3            Corp                             wpa2-enterprise\n"
    "14           A very long network name, over 32 wpa2-psk\n"
)


def test_the_saved_networks_are_read_as_the_service_prints_them() -> None:
    got = [(n.ssid, n.security) for n in wifi.parse_networks(LISTED)]
    assert got == [
        ("Office-Main", "wpa3-sae"),
        ("Home Net 5G", "wpa2-psk"),
        ("Cafe Guest", "open"),
        ("Corp", "wpa2-enterprise"),
        ("A very long network name, over 32", "wpa2-psk"),
    ]
    assert wifi.parse_networks("No networks\n") == []
    # what PhoneWorld prints reads back the same
    again = wifi.networks_output([{"ssid": s, "security": k} for s, k in got])
    assert [(n.ssid, n.security) for n in wifi.parse_networks(again)] == got


@pytest.mark.parametrize(
    "text",
    [
        "",
        "cmd: Can't find service: wifi\n",
        LISTED + "garbage\n",
        LISTED.replace("wpa3-sae\n", "wpa9\n"),
        "Network Id      SSID                         Security type\nx            Net   open\n",
    ],
)
def test_other_output_of_list_networks_is_an_error(text: str) -> None:
    with pytest.raises(OutputError, match="list-networks"):
        wifi.parse_networks(text)


def test_the_connections_are_read_from_the_status() -> None:
    connected = (
        "Wifi is enabled\nWifi scanning is always available\n"
        "==== Primary ClientModeManager instance ====\n"
        'Wifi is connected to "Office-Main"\n'
        'WifiInfo: SSID: "Office-Main", BSSID: 02:15:b2:00:01:00, RSSI: -50\n'
    )
    assert wifi.parse_status(connected) == (True, ["Office-Main"])
    assert wifi.parse_status("Wifi is disabled\nWifi scanning is always available\n") == (
        False,
        [],
    )
    off = wifi.status_output(True, [])
    assert "Wifi is not connected" in off and wifi.parse_status(off) == (True, [])
    two = wifi.status_output(True, ["Office-Main", "Lab"])
    assert "Secondary ClientModeManager" in two
    assert wifi.parse_status(two) == (True, ["Office-Main", "Lab"])
    with pytest.raises(OutputError, match="status"):
        wifi.parse_status("Error: unknown command\n")


def test_a_connection_to_a_network_not_listed_leaves_the_networks_unread() -> None:
    rows = wifi.rows(LISTED, wifi.status_output(True, ["Home Net 5G"]))
    assert [(r["ssid"], r["connected"]) for r in rows][:2] == [("Office-Main", "0"),
                                                              ("Home Net 5G", "1")]  # fmt: skip
    assert all(r["saved"] == "1" for r in rows)
    with pytest.raises(wifi.Unlisted, match="Airport"):
        wifi.rows(LISTED, wifi.status_output(True, ["Airport"]))
    # a shell that may not see the SSID (location off) is told no name
    hidden = "Wifi is enabled\nWifi is connected to <unknown ssid>\nWifiInfo: ...\n"
    assert wifi.parse_status(hidden) == (True, [None])
    with pytest.raises(wifi.Unlisted, match="does not name"):
        wifi.rows(LISTED, hidden)


def test_a_network_of_a_type_the_model_does_not_name_is_read_without_it() -> None:
    compiled = library()["androidworld.system_wifi_turn_off"]
    spec = next(s for s in probe_specs(compiled) if s.target == "wifi_networks")
    status = wifi.status_output(True, ["Corp"])
    records = records_of(spec, LISTED, lambda argv: status)
    by_ssid = {r["ssid"]: r for r in records}
    assert by_ssid["Home Net 5G"]["security"] == "wpa2"
    assert by_ssid["Cafe Guest"]["security"] == "open"
    assert "security" not in by_ssid["Corp"] and by_ssid["Corp"]["connected"] is True
    assert not_kept(compiled, [_world(records)]) == {("settings", "wifi_networks", "security")}


def _world(records: list[dict[str, Any]]) -> WorldSnapshot:
    return WorldSnapshot(apps={"settings": AppState(collections={"wifi_networks": records})})


# ---------------------------------------------------------------- the language
NETS = """\
app net_demo {
  package "com.example.net"
  record Net {
    ssid: text key
    security: enum(open, wep, wpa2, wpa3) = "wpa2"
    saved: bool = false
    connected: bool = false
    bars: int = 3
  }
  collection nets: Net
  probe nets: service %s
}
"""
GOOD = '"wifi" { ssid = "ssid", security = "security", saved = "saved", connected = "connected" }'


def _diagnostics(source: str) -> list[tuple[str, str]]:
    result = Compiler().compile_text(NETS % source, path="net.app")
    return [(d.code, d.message) for d in result.diagnostics]


def test_a_service_probe_reads_what_the_service_gives() -> None:
    assert _diagnostics(GOOD) == []
    for source, message in [
        ('"bluetooth" { ssid = "ssid" }', "no service `bluetooth`"),
        ('"wifi" { ssid = "bssid" }', "gives no `bssid`"),
        ('"wifi" { bars = "ssid" }', "reads a text field, and `bars` is int"),
        ('"wifi" { nope = "ssid" }', "has no field `nope`"),
    ]:
        found = _diagnostics(source)
        assert [code for code, _ in found] == ["TL1023"], (source, found)
        assert message in found[0][1]


def test_the_formatter_keeps_a_service_probe() -> None:
    once, problems = format_source(SourceFile("net.app", NETS % GOOD))
    assert problems == [] and once is not None
    assert 'probe nets: service "wifi" {' in once
    assert format_source(SourceFile("net.app", once))[0] == once


# ---------------------------------------------------------------- deciding on part of a list
def _env(listed: list[dict[str, Any]]) -> tuple[Env, ir.CompiledTask]:
    compiled = library()["androidworld.system_wifi_turn_off"]
    world = _world(listed)
    unknown = {("settings", "wifi_networks"): {"saved": False, "connected": False}}
    return Env(dict(compiled.apps), {}, world, partial=True, unlisted=unknown), compiled


def _clause(compiled: ir.CompiledTask, text: str) -> ir.Expr:
    source = f"""
task probe.one {{
  kind app
  apps settings
  goal "x"
  expect {{ {text} }}
}}
"""
    result = Compiler().compile_text(source, path="one.task")
    assert result.ok and result.tasks, [d.message for d in result.diagnostics]
    body = result.tasks[0].task.clauses[0].body
    assert isinstance(body, ir.CheckBody)
    return body.expr


SAVED = {"ssid": "Office-Main", "security": "wpa3", "saved": True, "connected": True}


@pytest.mark.parametrize(
    ("clause", "value"),
    [
        ("none settings.wifi_networks where connected", False),
        ("none settings.wifi_networks where connected and not saved", True),
        ("count(settings.wifi_networks where saved) == 1", True),
        ('settings.wifi_networks has { ssid == "Office-Main", connected == true }', True),
        ('exists settings.wifi_networks where ssid == "Cafe"', None),
        ("exists settings.wifi_networks where not saved", None),
        ("all settings.wifi_networks where saved", None),
        ("all settings.wifi_networks where not connected or saved", True),
        ("count(settings.wifi_networks) == 1", None),
        ("count(settings.wifi_networks where signal > 2) == 0", None),
    ],
)
def test_records_not_listed_decide_only_by_what_they_are_known_to_hold(
    clause: str, value: bool | None
) -> None:
    env, compiled = _env([dict(SAVED)])
    expr = _clause(compiled, clause)
    if value is None:
        with pytest.raises(Unknown):
            evaluate(expr, env)
    else:
        assert bool(evaluate(expr, env)) is value


def test_a_collection_listed_in_part_is_never_read_in_full() -> None:
    compiled = library()["androidworld.system_wifi_turn_off"]
    cov = coverage(compiled)
    key = ("settings", "wifi_networks")
    assert cov.unlisted[key] == {"saved": False, "connected": False}
    assert key not in cov.complete and key not in cov.keyed
    assert not cov.records_seen(key)
    check = next(c for c in compiled.task.clauses if "connected" in c.body.model_dump_json())
    assert clause_problem(check, compiled, cov) == (
        "settings.wifi_networks is listed only in part on a phone"
    )
    assert clause_problem(check, compiled, cov.shown()) is None


# ---------------------------------------------------------------- the library on PhoneWorld
def test_phoneworld_lists_the_saved_networks_and_names_the_connection() -> None:
    compiled = library()["settings.ensure_wifi_on"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    rows = probe(compiled, PhoneWorldTransport(compiled, lambda: end, lambda: "")).snapshot
    read = rows.apps["settings"].collections["wifi_networks"]
    truth = end.apps["settings"].collections["wifi_networks"]
    assert sorted(r["ssid"] for r in read) == sorted(r["ssid"] for r in truth if r["saved"])
    for r in read:
        real = next(t for t in truth if t["ssid"] == r["ssid"])
        assert (r["connected"], r["security"], r["saved"]) == (
            real["connected"],
            real["security"],
            True,
        )


def _judge(task: str, edit: Any = None) -> Any:
    compiled = library()[task]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    end = copy.deepcopy(end)
    if edit is not None:
        edit(end.apps["settings"].collections["wifi_networks"])
    along = step_readings(compiled, traj)
    assert along is not None
    return judge(compiled, traj, end, "edited", [r.snapshot for r in along],
                 start_reading(compiled, traj))  # fmt: skip


def test_the_checker_decides_the_network_connected() -> None:
    case = _judge("settings.ensure_wifi_on")
    assert case.phoneworld is True and case.device is True and case.unobservable == {}

    def elsewhere(nets: list[dict[str, Any]]) -> None:
        for n in nets:  # connected to another saved network instead
            n["connected"] = False
        next(n for n in nets if n["saved"] and n["ssid"] != "HomeNet-5G")["connected"] = True

    case = _judge("settings.ensure_wifi_on", elsewhere)
    assert case.phoneworld is False and case.device is False and case.agrees


def test_the_networks_are_decided_after_wifi_is_turned_off() -> None:
    case = _judge("androidworld.system_wifi_turn_off")
    assert case.agrees and case.device is True and case.unobservable == {}

    def forget(nets: list[dict[str, Any]]) -> None:
        next(n for n in nets if n["saved"])["saved"] = False

    case = _judge("androidworld.system_wifi_turn_off", forget)
    assert case.phoneworld is False and case.device is False and case.agrees


def test_a_removal_no_step_can_make_is_decided_by_the_model_not_by_the_listing() -> None:
    # `forbid { deleted settings.wifi_networks }`: the readings list the saved networks
    # only, and lose the others as if deleted; no step removes a network (`removes
    # wifi_networks nowhere`), so the declaration decides the clause, whatever they show
    compiled = library()["androidworld.system_wifi_turn_off"]
    clause = next(c for c in compiled.task.clauses if c.id == "s9")
    assert clause.role == "safety" and "deleted" in clause.body.model_dump_json()
    cov = coverage(compiled).with_kept(kept_state(compiled, []))
    assert ("settings", "wifi_networks") in cov.append_only
    assert clause_problem(clause, compiled, cov, steps=True) is None
    result = decide_declared(clause, cov)
    assert result is not None and result.passed is True
    assert "declarations prove it never happened" in result.summary
    # without the declaration, a listing in part cannot tell a removal
    plain = coverage(compiled)
    assert "could be missed" in (clause_problem(clause, compiled, plain, steps=True) or "")
    assert decide_declared(clause, plain) is None


def test_a_connection_to_a_network_not_saved_is_not_guessed() -> None:
    def stray(nets: list[dict[str, Any]]) -> None:
        next(n for n in nets if not n["saved"])["connected"] = True

    case = _judge("androidworld.system_wifi_turn_on", stray)
    assert case.phoneworld is False and case.device is None and case.agrees
    assert "c2" in case.unobservable


def test_no_near_miss_connects_a_network_the_phone_has_not_saved() -> None:
    """Connecting to a network saves it: a world where an unsaved network is connected is
    none a phone can be in (its service would name a connection it does not list), so the
    differential makes no such near miss; the ones it makes are all decided."""
    import random

    from tasklang.envs.device.differential import near_misses, run_task

    compiled = library()["settings.ensure_wifi_on"]
    _, traj = run_reference(compiled, 0)
    assert traj.final.snapshot is not None
    made = 0
    for seed in range(12):
        for name, world in near_misses(compiled, traj.final.snapshot, random.Random(seed), 50):
            for net in world.apps["settings"].collections["wifi_networks"]:
                assert net["saved"] or not net["connected"], (seed, name, net)
            made += 1
    assert made >= 12 * 3
    for seed in (0, 1, 2):
        assert all(c.agrees and c.device is not None for c in run_task(compiled, seed)), seed
    assert not wifi.kept({"saved": "saved", "connected": "connected"},
                         {"ssid": "Cafe", "saved": False, "connected": True})  # fmt: skip
