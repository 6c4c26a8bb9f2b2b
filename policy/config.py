"""Training configurations: TOML files with ``[model]``, ``[data]``, ``[sft]``, ``[rl]``, ``[eval]``.

Unknown keys and wrongly typed values are refused with the file and the key named, so a typo
never silently falls back to a default. Relative paths are resolved from the config's folder.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """A configuration file that cannot be used (where and why in the message)."""


@dataclass
class ModelConfig:
    name: str = ""  # hub id or local path; empty with tiny = true
    tiny: bool = False  # build a tiny model and tokenizer locally from the training data
    tiny_hidden: int = 128
    tiny_layers: int = 2
    tiny_heads: int = 4
    tiny_vocab: int = 2048
    lora: bool = False
    lora_r: int = 8
    lora_alpha: int = 16
    lora_dropout: float = 0.0


@dataclass
class DataConfig:
    tasks: list[str] = field(default_factory=list)  # ids or glob patterns of library tasks
    source: str = "reference"  # reference | solver
    train_seeds: str = "0-19"
    eval_seeds: str = "1000-1019"  # held-out instances (seeds never used for training)
    eval_families: list[str] = field(default_factory=list)  # families kept out of training
    trajectories: list[str] = field(default_factory=list)  # recorded JSONL files or globs
    environments: dict[str, float] = field(default_factory=dict)  # mixture weights
    kinds: dict[str, float] = field(default_factory=dict)
    seed: int = 0


@dataclass
class SFTConfig:
    output_dir: str = "runs/sft"
    epochs: float = 1.0
    max_steps: int = -1
    learning_rate: float = 2e-4
    batch_size: int = 1
    gradient_accumulation: int = 1
    max_length: int = 4096
    save_steps: int = 50
    save_total_limit: int = 2
    logging_steps: int = 10
    time_limit: float = 0.0  # seconds of training at most (0: no limit); stops after a step
    seed: int = 0


@dataclass
class RLConfig:
    output_dir: str = "runs/rl"
    mode: str = "phoneworld"  # phoneworld | device | mixed
    ratio: str = "1:1"  # PhoneWorld:device episodes in mixed mode
    init: str = ""  # the policy to start from (an SFT output); default: the model
    max_steps: int = 20
    learning_rate: float = 1e-5
    batch_size: int = 8  # rollouts per step (prompts x num_generations)
    num_generations: int = 4
    max_completion_length: int = 1024
    max_tool_calls: int = 12
    temperature: float = 1.0
    beta: float = 0.0
    save_steps: int = 10
    save_total_limit: int = 2
    logging_steps: int = 1
    concurrency: int = 8  # environment steps run at once within a batch
    device_factory: str = ""  # `module:callable` returning a device session
    latency: float = 0.0  # simulated PhoneWorld step latency (benchmarks)
    ray: bool = False  # PhoneWorld episodes in a Ray actor pool
    ray_actors: int = 2
    time_limit: float = 0.0  # seconds of training at most (0: no limit); stops after a step
    seed: int = 0


@dataclass
class EvalConfig:
    max_steps: int = 12  # actions per episode at most (the task budget also applies)
    max_new_tokens: int = 64
    batch_size: int = 8


@dataclass
class Config:
    path: Path
    model: ModelConfig = field(default_factory=ModelConfig)
    data: DataConfig = field(default_factory=DataConfig)
    sft: SFTConfig = field(default_factory=SFTConfig)
    rl: RLConfig = field(default_factory=RLConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)

    def resolve(self, value: str) -> Path:
        """A path from the config, relative to the config file's folder."""
        p = Path(value)
        return p if p.is_absolute() else Path(os.path.normpath(self.path.parent / p))


_SECTIONS: dict[str, type[Any]] = {
    "model": ModelConfig,
    "data": DataConfig,
    "sft": SFTConfig,
    "rl": RLConfig,
    "eval": EvalConfig,
}


def _check_type(where: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, str):
        ok = isinstance(value, str) or (where.endswith("seeds") and isinstance(value, list))
        if ok and isinstance(value, list):
            value = ",".join(str(v) for v in value)
    elif isinstance(default, list):
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    elif isinstance(default, dict):
        ok = isinstance(value, dict) and all(
            isinstance(v, int | float) and not isinstance(v, bool) and v >= 0
            for v in value.values()
        )
        value = {k: float(v) for k, v in value.items()} if ok else value
    else:
        ok = True
    if not ok:
        raise ConfigError(f"{where}: expected {type(default).__name__}, got `{value!r}`")
    return value


def parse_config(data: dict[str, Any], path: Path) -> Config:
    """A Config from parsed TOML; ``path`` names the file in errors and anchors relative paths."""
    config = Config(path=path)
    for section, body in data.items():
        cls = _SECTIONS.get(section)
        if cls is None:
            raise ConfigError(
                f"{path}: unknown section `[{section}]` (known: {', '.join(_SECTIONS)})"
            )
        if not isinstance(body, dict):
            raise ConfigError(f"{path}: `{section}` must be a table")
        target = getattr(config, section)
        known = {f.name for f in fields(cls)}
        for key, value in body.items():
            if key not in known:
                from tasklang.diagnostics import did_you_mean

                hint = did_you_mean(key, known)
                raise ConfigError(
                    f"{path}: unknown key `{key}` in [{section}]" + (f"; {hint}" if hint else "")
                )
            where = f"{path}: [{section}] {key}"
            setattr(target, key, _check_type(where, value, getattr(target, key)))
    _validate(config)
    return config


def _validate(c: Config) -> None:
    p = c.path
    if not c.model.tiny and not c.model.name:
        raise ConfigError(f"{p}: [model] needs `name` (a hub id or a local path) or `tiny = true`")
    if c.data.source not in ("reference", "solver"):
        raise ConfigError(
            f"{p}: [data] source must be `reference` or `solver`, not `{c.data.source}`"
        )
    if c.rl.mode not in ("phoneworld", "device", "mixed"):
        raise ConfigError(f"{p}: [rl] mode must be phoneworld, device or mixed, not `{c.rl.mode}`")
    parse_ratio(c.rl.ratio, f"{p}: [rl] ratio")
    if c.rl.batch_size % c.rl.num_generations:
        raise ConfigError(f"{p}: [rl] batch_size must be a multiple of num_generations")
    from tasklang.policy.io import parse_seeds

    for key in ("train_seeds", "eval_seeds"):
        try:
            parse_seeds(getattr(c.data, key))
        except ValueError as exc:
            raise ConfigError(f"{p}: [data] {key}: {exc}") from None


def parse_ratio(text: str, where: str = "ratio") -> tuple[int, int]:
    """``"3:1"`` -> (3, 1): PhoneWorld episodes to device episodes."""
    a, sep, b = text.partition(":")
    try:
        pw, dev = int(a), int(b)
        if not sep or pw < 0 or dev < 0 or pw + dev == 0:
            raise ValueError
    except ValueError:
        raise ConfigError(
            f"{where}: `{text}` is not a ratio `P:D` of non-negative integers"
        ) from None
    return pw, dev


def load_config(path: Path) -> Config:
    """Read and check a TOML configuration file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read `{path}`: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    return parse_config(data, Path(path))
