"""Randomization for transfer to real phones: off by default, one switch, every choice drawn
from the seed; reference solutions still pass on randomized phones."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from tasklang.cli import app
from tasklang.compiler import Compiler, library_root
from tasklang.envs.phoneworld.env import PhoneWorldEnv
from tasklang.envs.phoneworld.episode import Episode, missing_apps, run_reference
from tasklang.envs.phoneworld.randomize import DEVICES, Randomization, scale_noise
from tasklang.envs.phoneworld.solutions import references
from tasklang.verifiers.verdict import Verdict

runner = CliRunner()
LIBRARY = {c.task.id: c for c in Compiler().compile_paths([library_root()]).tasks}
SOLVED = sorted(t for t, c in LIBRARY.items() if not missing_apps(c) and t in references())
NOISY = "contacts.add_coworker"


def test_off_by_default() -> None:
    ep = Episode(LIBRARY[NOISY], 3)
    assert ep.randomization is None and (ep.width, ep.height, ep.density) == (1080, 2400, 420)
    assert ep.phone.row_scale == 1.0


def test_choices_come_from_the_seed_and_vary() -> None:
    picks = [Randomization.from_seed(NOISY, s) for s in range(40)]
    assert picks == [Randomization.from_seed(NOISY, s) for s in range(40)]
    assert len({p.device for p in picks}) >= 4 and {p.dark for p in picks} == {True, False}
    assert len({p.font_scale for p in picks}) >= 3 and len({p.noise_scale for p in picks}) >= 3
    for p in picks:
        assert (p.device, p.width, p.height, p.density) in DEVICES


def test_a_randomized_episode_uses_its_device_and_scales_rows() -> None:
    for seed in range(12):
        ep = Episode(LIBRARY[NOISY], seed, randomize=True)
        r = ep.randomization
        assert r is not None and (ep.width, ep.height) == (r.width, r.height)
        root = ep.tree()
        assert root.bounds == (0, 0, r.width, r.height)
        assert ep.phone.row_scale == pytest.approx(r.density / 420 * r.font_scale)
        header = ep.trajectory().header.environment
        assert header.model == r.device and header.screen is not None
        assert (header.screen.width, header.screen.density) == (r.width, r.density)


def test_noise_amount_and_record_order_change_with_the_seed() -> None:
    compiled = LIBRARY[NOISY]
    counts = set()
    for seed in range(12):
        plain = Episode(compiled, seed)
        randomized = Episode(compiled, seed, randomize=True)
        r = randomized.randomization
        assert r is not None and plain.instance is not None and randomized.instance is not None
        people = randomized.instance.initial.apps["contacts"].collections["people"]
        counts.add(len(people))
        scaled = scale_noise(compiled, r.noise_scale)
        ops = [op.count for op in scaled.task.given.ops if hasattr(op, "count")]
        base = [op.count for op in compiled.task.given.ops if hasattr(op, "count")]
        assert ops == [max(1, round(n * r.noise_scale)) for n in base]
    assert len(counts) >= 3
    # the same records, another order
    ep = Episode(compiled, 5, randomize=True)
    assert ep.instance is not None
    again = Episode(compiled, 5, randomize=True)
    assert again.instance is not None
    assert ep.instance.initial == again.instance.initial


def test_dark_screenshots() -> None:
    seed = next(s for s in range(40) if Randomization.from_seed(NOISY, s).dark)
    ep = Episode(LIBRARY[NOISY], seed, randomize=True)
    image = Image.open(io.BytesIO(ep.screenshot())).convert("L")
    assert abs(image.size[0] / image.size[1] - ep.width / ep.height) < 0.01
    hist = image.histogram()
    assert sum(hist[:80]) > sum(hist) / 2  # mostly dark


@pytest.mark.parametrize("task_id", SOLVED)
def test_references_pass_on_randomized_phones(task_id: str) -> None:
    for seed in range(2):
        verdict = run_reference_randomized(task_id, seed)
        assert verdict.success, (seed, [(r.id, r.summary) for r in verdict.clauses if not r.passed])


def run_reference_randomized(task_id: str, seed: int) -> Verdict:
    from tasklang.envs.phoneworld.solutions import Driver

    ep = Episode(LIBRARY[task_id], seed, randomize=True)
    assert ep.instance is not None
    references()[task_id](Driver(ep.tree, ep.step, ep.instance.params, max_steps=80))
    return ep.verdict()


def test_gymnasium_and_command_line_switch(tmp_path: Path) -> None:
    env = PhoneWorldEnv(NOISY, seed=7, randomize=True)
    obs, _ = env.reset()
    r = Randomization.from_seed(NOISY, 7)
    assert f'bounds="[0,0][{r.width},{r.height}]"' in obs["ui_xml"]
    out = tmp_path / "t.jsonl"
    result = runner.invoke(app, ["run", NOISY, "--randomize", "--seed", "7", "-o", str(out)])
    assert result.exit_code == 0, result.stdout
    header = json.loads(out.read_text().splitlines()[0])
    assert header["environment"]["model"] == r.device
    plain, _ = run_reference(LIBRARY[NOISY], 7)
    assert plain.success
