"""Shared pytest options and fixtures.

``--update-golden`` rewrites the expected files of the golden cases (review the diff);
``realdata_dir`` is the folder of recorded real-world data, skipped when it is absent;
``bound_graphs`` are the screen graphs reconstructed from its recordings of the apps bound to
app models; ``decided_on_a_phone`` checks a library task through the device differential.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*/expected.* from the current compiler output",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "realdata: reads recorded real-world data from ../shared/realdata"
    )


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository root (the folder holding pyproject.toml)."""
    assert (REPO_ROOT / "pyproject.toml").is_file(), REPO_ROOT
    return REPO_ROOT


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    """Whether golden tests should rewrite their expected files instead of comparing."""
    return bool(request.config.getoption("--update-golden", default=False))


@pytest.fixture(scope="session")
def realdata_dir(repo_root: Path) -> Path:
    """``../shared/realdata`` relative to the repository root; skips the test when absent."""
    path = repo_root.parent / "shared" / "realdata"
    if not path.is_dir():
        pytest.skip(f"real-world data not available: `{path}` does not exist")
    return path


# the recorded apps bound to app models: model -> the recording's folder in autodroid/
BOUND_APPS = {"messages": "SMS Messenger", "contacts": "contacts", "phone": "dialer"}


@pytest.fixture(scope="session")
def bound_graphs(realdata_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The graph files `tasklang reconstruct` builds from the bound apps' recordings, by app
    model (built once per session)."""
    from typer.testing import CliRunner

    from tasklang.cli import app

    out = tmp_path_factory.mktemp("bound")
    utgs = realdata_dir / "autodroid" / "memory" / "utgs"
    srcs = [str(utgs / name) for name in BOUND_APPS.values()]
    result = CliRunner().invoke(app, ["reconstruct", *srcs, "-o", str(out), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    by_app = {a["app"]: a["graph"] for a in json.loads(result.stdout)["apps"]}
    return {model: by_app[name] for model, name in BOUND_APPS.items()}


@pytest.fixture(scope="session")
def decided_on_a_phone() -> Callable[..., None]:
    """A check that a library task's reference end state is decided on a phone, a success,
    and that the device checker agrees with PhoneWorld on every near miss (seed 0); with
    ``every_case``, that it decides every near miss too."""
    from tasklang.envs.device.differential import library, run_task

    def check(task: str, every_case: bool = False) -> None:
        cases = run_task(library()[task], 0)
        assert cases[0].name == "reference" and cases[0].device is True, task
        assert all(c.agrees for c in cases), task
        if every_case:
            undecided = [(c.name, c.unobservable) for c in cases if c.device is None]
            assert not undecided, (task, undecided)

    return check


@pytest.fixture(scope="session")
def device_check_of() -> Callable[..., tuple[Any, Any, Any]]:
    """The device verdict, PhoneWorld's verdict and the compiled task for a library task's
    reference episode (seed 0), read through PhoneWorld's probe commands as on a phone:
    ``edit(snapshot, trajectory)`` changes the end state first (with ``from_start``, the world
    the episode starts from as well, so the end follows from it)."""
    import copy

    from tasklang.envs.device.check import device_check
    from tasklang.envs.device.differential import library, start_reading, step_readings
    from tasklang.envs.device.phoneworld import PhoneWorldTransport
    from tasklang.envs.phoneworld.episode import run_reference
    from tasklang.verifiers.check import check_trajectory
    from tasklang.verifiers.trajectory import Final

    def check(task_id: str, edit: Any = None, from_start: bool = False) -> tuple[Any, Any, Any]:
        compiled = library()[task_id]
        _, traj = run_reference(compiled, 0)
        end = traj.final.snapshot
        assert end is not None
        if edit is not None:
            end = copy.deepcopy(end)
            edit(end, traj)
            update: dict[str, Any] = {
                "final": Final(status=traj.final.status, answer=traj.final.answer, snapshot=end)
            }
            if from_start:
                instance = traj.header.instance
                assert instance.initial is not None
                initial = copy.deepcopy(instance.initial)
                edit(initial, traj)
                update["header"] = traj.header.model_copy(
                    update={"instance": instance.model_copy(update={"initial": initial})}
                )
            traj = traj.model_copy(update=update)
        along = step_readings(compiled, traj)
        start = start_reading(compiled, traj)
        assert along is not None and start is not None
        transport = PhoneWorldTransport(compiled, lambda: end, lambda: "")
        dv = device_check(compiled, traj, transport, step_states=[r.snapshot for r in along],
                          sleep=lambda s: None, start=start.snapshot)  # fmt: skip
        return dv, check_trajectory(compiled, traj), compiled

    return check


@pytest.fixture(scope="session")
def screens_read() -> Callable[[Any, Any], Any]:
    """What a phone reads of a world through PhoneWorld's probe commands, its apps' screens
    included: ``screens_read(compiled, world)`` is the reading (``check.Reading``)."""
    from tasklang.envs.device.check import probe
    from tasklang.envs.device.phoneworld import PhoneWorldTransport

    def read(compiled: Any, world: Any) -> Any:
        transport = PhoneWorldTransport(compiled, lambda: world, lambda: "")
        return probe(compiled, transport, screens=True, sleep=lambda s: None)

    return read
