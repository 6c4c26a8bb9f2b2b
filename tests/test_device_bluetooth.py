"""The devices the Bluetooth service keeps bonded (`service "bluetooth_manager"`), read from
`dumpsys bluetooth_manager` while Bluetooth is on, unread while it is off."""

from __future__ import annotations

import pytest

from tasklang.envs.device import bluetooth, check
from tasklang.envs.device.check import probe, probe_start
from tasklang.envs.device.differential import library, run_task, start_reading
from tasklang.envs.device.emulated import EmulatedPhone, Storage
from tasklang.envs.device.parse import Unread
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import carry_unread, needs_start
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.verifiers.probes import step_proofs

# the manager's state, then the adapter's dump: the bonded devices (an address masked as newer
# releases print it, one whole, a name with brackets and spaces), then the next section
DUMP = (
    "Bluetooth Status\n"
    "  enabled: true\n"
    "  state: ON\n"
    "  address: XX:XX:XX:XX:3C:91\n"
    "  name: Pixel 7\n"
    "\n"
    "Bonded devices:\n"
    "  XX:XX:XX:XX:A0:01 [ DUAL ] Galaxy Buds2\n"
    "  00:1B:66:0A:44:F2 [BR/EDR] JBL Flip 6\n"
    "  XX:XX:XX:XX:77:10 [ LE ] Car [Kit] 2290 \n"
    "\n"
    "AdapterProperties\n"
    "  Name: Pixel 7\n"
)


def test_the_bonded_devices_are_read_as_the_dump_lists_them() -> None:
    assert bluetooth.bonded(DUMP) == ["Galaxy Buds2", "JBL Flip 6", "Car [Kit] 2290"]
    assert bluetooth.rows(DUMP)[0] == {"name": "Galaxy Buds2", "paired": "1"}
    no_devices = DUMP.split("Bonded devices:")[0] + "Bonded devices:\n\n"
    assert bluetooth.bonded(no_devices) == []
    assert bluetooth.unlisted({"name": "name", "paired": "paired"}) == {"paired": False}


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (DUMP.replace("enabled: true", "enabled: false"), "Bluetooth is off"),
        (DUMP.split("\nBonded devices:")[0], "printed no bonded devices"),
        ("Bluetooth Service not connected\n", "no state"),
        (DUMP.replace("JBL Flip 6", "Galaxy Buds2"), "two bonded devices are named"),
    ],
)
def test_what_cannot_say_which_devices_are_bonded_leaves_them_unread(text: str, why: str) -> None:
    """Bluetooth off, an adapter that printed nothing, a state said in other words, or two
    devices of one name: the devices are not read, never taken for none."""
    with pytest.raises(Unread, match=why):
        bluetooth.bonded(text)


def test_output_reads_back() -> None:
    names = ["Galaxy Buds2", "JBL Flip 6"]
    assert bluetooth.bonded(bluetooth.output(True, names)) == names
    with pytest.raises(Unread, match="off"):
        bluetooth.bonded(bluetooth.output(False, names))


def test_phoneworld_lists_the_paired_devices_while_bluetooth_is_on() -> None:
    """Turned on, the phone reads exactly the paired devices; turned off, none of them (the
    collection is unread, not empty)."""
    on = library()["androidworld.system_bluetooth_turn_on"]
    _, traj = run_reference(on, 0)
    world = traj.final.snapshot
    assert world is not None
    reading = probe(on, PhoneWorldTransport(on, lambda: world, lambda: "<hierarchy/>"))
    paired = [d["name"] for d in world.apps["settings"].collections["bluetooth_devices"]
              if d["paired"]]  # fmt: skip
    read = reading.snapshot.apps["settings"].collections["bluetooth_devices"]
    assert read == [{"name": n, "paired": True} for n in paired] and len(paired) == 2
    off = library()["androidworld.system_bluetooth_turn_off"]
    _, traj = run_reference(off, 0)
    ended = traj.final.snapshot
    assert ended is not None and ended.apps["settings"].settings["bluetooth"] is False
    reading = probe(off, PhoneWorldTransport(off, lambda: ended, lambda: "<hierarchy/>"))
    assert "off" in reading.unread[("settings", "bluetooth_devices")]
    assert "bluetooth_devices" not in reading.snapshot.apps["settings"].collections


def test_a_phone_reads_its_bonded_devices() -> None:
    compiled = library()["androidworld.system_bluetooth_turn_on"]
    storage = Storage(bonded=["Galaxy Buds2", "JBL Flip 6"])
    storage.settings[("global", "bluetooth_on")] = "1"
    reading = probe(compiled, EmulatedPhone(compiled, storage))
    read = reading.snapshot.apps["settings"].collections["bluetooth_devices"]
    assert [d["name"] for d in read] == ["Galaxy Buds2", "JBL Flip 6"]


@pytest.mark.parametrize("task", ["androidworld.system_bluetooth_turn_on",
                                  "androidworld.system_bluetooth_turn_off"])  # fmt: skip
def test_the_bluetooth_tasks_agree_on_every_end_state(task: str) -> None:
    for seed in (0, 1, 2):
        cases = run_task(library()[task], seed)
        assert all(c.agrees for c in cases), (seed, [c for c in cases if not c.agrees])


def test_a_check_of_the_end_state_is_decided_though_the_first_readings_could_not_read_it() -> None:
    """Turning Bluetooth on, the readings after the first steps (Bluetooth still off) cannot
    read the devices; the reading at the end can. A check of the end state reads that reading
    alone (`device_check`), so that no device was paired or forgotten is decided, on every
    seed; a near miss that ends with Bluetooth off leaves those checks unread (and is
    decided by the setting)."""
    compiled = library()["androidworld.system_bluetooth_turn_on"]
    _, traj = run_reference(compiled, 0)
    first = traj.steps[0].snapshot
    assert first is not None and first.apps["settings"].settings["bluetooth"] is False
    reading = probe(compiled, PhoneWorldTransport(compiled, lambda: first, lambda: "<hierarchy/>"))
    assert ("settings", "bluetooth_devices") in reading.unread
    checks = [c.id for c in compiled.task.clauses if c.body.node == "check"]
    for seed in (0, 1, 2):
        cases = {c.name: c for c in run_task(compiled, seed)}
        ref = cases["reference"]
        assert ref.device is True and not set(checks) & set(ref.unobservable), seed
        off = cases["setting settings.bluetooth"]
        assert off.device is False and {"c2", "c3", "c4"} <= set(off.unobservable)


def test_turning_bluetooth_off_is_decided_on_the_pairings_read_before_the_episode(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With Bluetooth off a phone lists no bonded device; the reading before the episode
    (Bluetooth on) does, and no step of the episode could pair or forget one, nor make the
    phone hear of a new device (the settings model's `changes ... .paired only by` and
    `adds ... only on` lines): that reading stands for the end, so the devices still paired
    are decided, on every seed. Without it they are not."""
    compiled = library()["androidworld.system_bluetooth_turn_off"]
    _, traj = run_reference(compiled, 0)
    start = start_reading(compiled, traj)
    assert start is not None
    before = start.snapshot.apps["settings"].collections["bluetooth_devices"]
    assert before == [{"name": "Pixel Buds Pro", "paired": True},
                      {"name": "Car Kit 2290", "paired": True}]  # fmt: skip
    for seed in (0, 1, 2):
        cases = {c.name: c for c in run_task(compiled, seed)}
        ref = cases["reference"]
        assert ref.device is True and not ref.unobservable, (seed, ref)
    monkeypatch.setattr(check, "carry_unread", lambda c, s, end, *rest: (end, set()))
    ref = run_task(compiled, 0)[0]
    assert ref.device is None and "c2" in ref.unobservable


def test_the_pairings_read_before_stand_for_the_end_only_where_the_steps_prove_them() -> None:
    compiled = library()["androidworld.system_bluetooth_turn_off"]
    _, traj = run_reference(compiled, 0)
    start = start_reading(compiled, traj)
    end = traj.final.snapshot
    assert start is not None and end is not None
    read_end = probe(compiled, PhoneWorldTransport(compiled, lambda: end, lambda: "<hierarchy/>"))
    key = ("settings", "bluetooth_devices")
    unread = set(read_end.unread)
    assert key in unread
    proofs = step_proofs(compiled, traj.steps)
    assert ("settings", "bluetooth_devices.paired") in proofs.quiet
    assert key in proofs.kept and key in proofs.closed
    args = (proofs.quiet, proofs.kept, proofs.closed)
    carried, which = carry_unread(compiled, start.snapshot, read_end.snapshot, unread, *args)
    assert which == {key}
    assert (
        carried.apps["settings"].collections["bluetooth_devices"]
        == (start.snapshot.apps["settings"].collections["bluetooth_devices"])
    )
    assert "bluetooth_devices" not in read_end.snapshot.apps["settings"].collections  # a copy
    # a step that could pair or forget a device, one that could list a new device, no
    # reading before the episode, or a reading at the end that got them: nothing is carried
    paired_open = proofs.quiet - {("settings", "bluetooth_devices.paired")}
    for quiet, kept, closed, before, missing in [
        (paired_open, proofs.kept, proofs.closed, start.snapshot, unread),
        (proofs.quiet, proofs.kept, proofs.closed - {key}, start.snapshot, unread),
        (proofs.quiet, proofs.kept - {key}, proofs.closed, start.snapshot, unread),
        (proofs.quiet, proofs.kept, proofs.closed, None, unread),
        (proofs.quiet, proofs.kept, proofs.closed, start.snapshot, set()),
    ]:
        out, which = carry_unread(compiled, before, read_end.snapshot, missing, quiet, kept, closed)
        assert which == set() and out is read_end.snapshot


def test_a_phone_is_read_before_the_episode_for_its_bonded_devices() -> None:
    compiled = library()["androidworld.system_bluetooth_turn_off"]
    assert needs_start(compiled)
    storage = Storage(bonded=["Galaxy Buds2"])
    storage.settings[("global", "bluetooth_on")] = "1"
    start = probe_start(compiled, EmulatedPhone(compiled, storage))
    read = start.snapshot.apps["settings"].collections["bluetooth_devices"]
    assert read == [{"name": "Galaxy Buds2", "paired": True}]
    storage.settings[("global", "bluetooth_on")] = "0"
    start = probe_start(compiled, EmulatedPhone(compiled, storage))
    assert "off" in start.unread[("settings", "bluetooth_devices")]
