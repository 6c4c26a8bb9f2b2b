"""Randomization for transfer to real phones: one switch, everything chosen from the seed.

With randomization on, an episode's seed also picks

- a device: screen size and density from real phones (list rows are laid out in
  density-independent pixels, so a denser screen has taller rows in pixels);
- dark mode for screenshots (the XML of a dump carries no colours, so only screenshots
  change; the apps' own dark-theme settings are state and are left as the task sets them);
- a font scale, as the system's font size setting would (rows grow or shrink);
- the order of every collection's records in the initial state (apps that sort their lists
  show the same order; lists in insertion order show another one);
- the amount of noise data: every ``noise N`` of ``given`` draws ``N`` times a factor.

Off by default (``Episode(..., randomize=True)``, ``PhoneWorldEnv(randomize=True)``,
``tasklang run --randomize``). The same task and seed give the same choices on every machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tasklang import ir
from tasklang.verifiers.snapshot import WorldSnapshot

# (name, width, height, density): screens of real phones
DEVICES = (
    ("Pixel 6", 1080, 2400, 420),
    ("Pixel 4a", 1080, 2340, 440),
    ("Pixel 7 Pro", 1440, 3120, 560),
    ("Pixel 3a", 1080, 2220, 440),
    ("Galaxy A14", 1080, 2408, 400),
    ("Moto G Play", 720, 1600, 280),
)
FONT_SCALES = (0.85, 1.0, 1.15, 1.3)
NOISE_SCALES = (0.5, 1.0, 1.5, 2.0)
BASE_DENSITY = 420  # the density PhoneWorld's apps give their pixel heights for


@dataclass(frozen=True)
class Randomization:
    device: str
    width: int
    height: int
    density: int
    dark: bool
    font_scale: float
    noise_scale: float
    shuffle_seed: int  # orders the initial records

    @classmethod
    def from_seed(cls, task_id: str, seed: int) -> Randomization:
        rng = random.Random(f"randomize#{task_id}#{seed}")
        name, width, height, density = rng.choice(DEVICES)
        return cls(
            name,
            width,
            height,
            density,
            rng.random() < 0.5,
            rng.choice(FONT_SCALES),
            rng.choice(NOISE_SCALES),
            rng.randrange(2**31),
        )

    @property
    def row_scale(self) -> float:
        """How much taller a row is in pixels than on the base screen."""
        return self.density / BASE_DENSITY * self.font_scale

    def describe(self) -> str:
        return (
            f"{self.device} {self.width}x{self.height} {self.density} dpi, "
            f"{'dark' if self.dark else 'light'}, font x{self.font_scale}, "
            f"noise x{self.noise_scale}, shuffled lists"
        )


def scale_noise(compiled: ir.CompiledTask, factor: float) -> ir.CompiledTask:
    """A copy of ``compiled`` whose ``noise N`` operations draw ``round(N * factor)``
    records (at least one where there was one)."""
    if factor == 1.0:
        return compiled
    copy = compiled.model_copy(deep=True)
    for op in copy.task.given.ops:
        if isinstance(op, ir.NoiseOp) and op.count > 0:
            op.count = max(1, round(op.count * factor))
    return copy


def shuffle_records(snap: WorldSnapshot, seed: int) -> WorldSnapshot:
    """A copy of ``snap`` with every collection's records in a random order."""
    rng = random.Random(seed)
    copy = snap.model_copy(deep=True)
    for name in sorted(copy.apps):
        for records in (
            copy.apps[name].collections[c] for c in sorted(copy.apps[name].collections)
        ):
            rng.shuffle(records)
    return copy
