"""`tasklang train ...`, `tasklang eval` and `tasklang demo train`: the policy module's commands."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer


class Fmt(StrEnum):
    text = "text"
    json = "json"


FmtOpt = Annotated[Fmt, typer.Option("--format", help="Output format.")]
ConfigOpt = Annotated[Path, typer.Option("--config", "-c", help="A training config (TOML).")]


def _usage(message: str) -> typer.Exit:
    typer.echo(f"tasklang: error: {message}", err=True)
    return typer.Exit(2)


def _failed(message: str) -> typer.Exit:
    typer.echo(f"tasklang: error: {message}", err=True)
    return typer.Exit(1)


def _need_train_extra() -> None:
    import importlib.util

    missing = [
        m
        for m in ("torch", "transformers", "trl", "datasets")
        if importlib.util.find_spec(m) is None
    ]
    if missing:
        raise _usage(
            f"training needs the `train` extra (missing: {', '.join(missing)}); pip install 'tasklang[train]'"
        )
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")


def _config(path: Path) -> Any:
    from tasklang.policy.config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as exc:
        raise _usage(str(exc)) from None


def _emit(fmt: Fmt, data: dict[str, Any], text: str) -> None:
    typer.echo(json.dumps(data, indent=2, default=str) if fmt is Fmt.json else text)


def _sft_data(config: Any) -> tuple[list[Any], str]:
    from tasklang.policy.data import demonstrations, load_trajectories, mix, split_by_family
    from tasklang.policy.io import parse_seeds
    from tasklang.policy.tasks import resolve

    d = config.data
    tasks = resolve(d.tasks)
    examples = demonstrations(
        [t for t in tasks if t not in d.eval_families], parse_seeds(d.train_seeds), d.source
    )
    paths: list[Path] = []
    for pattern in d.trajectories:
        hits = (
            sorted(config.path.parent.glob(pattern))
            if not Path(pattern).is_absolute()
            else [Path(pattern)]
        )
        if not hits:
            raise ValueError(f"no trajectory file matches `{pattern}`")
        paths.extend(hits)
    examples += load_trajectories(paths)
    train, _ = split_by_family(examples, d.eval_families)
    train = mix(train, d.environments, d.kinds, d.seed)
    if not train:
        raise ValueError("no training example: check [data] tasks, seeds and trajectories")
    return train, f"{len(train)} examples ({len(tasks)} tasks, {len(paths)} trajectory files)"


def _base_model(config: Any, train: list[Any]) -> Path | str:
    m = config.model
    if not m.tiny:
        return str(m.name)
    from tasklang.policy.tiny import build_tiny

    base: Path = config.resolve(config.sft.output_dir) / "base"
    if (base / "config.json").is_file():
        return base
    return build_tiny(
        base, [e.messages for e in train], m.tiny_vocab, m.tiny_hidden, m.tiny_layers, m.tiny_heads
    )


def sft_cmd(
    config: ConfigOpt,
    fresh: Annotated[bool, typer.Option("--fresh", help="Ignore existing checkpoints.")] = False,
    fmt: FmtOpt = Fmt.text,
) -> None:
    """Supervised fine-tuning on demonstrations (resumes from the latest checkpoint)."""
    _need_train_extra()
    cfg = _config(config)
    from tasklang.policy.sft import run_sft

    try:
        train, what = _sft_data(cfg)
        base = _base_model(cfg, train)
        with contextlib.redirect_stdout(sys.stderr):  # training logs; results go to stdout
            final = run_sft(cfg, train, base, resume=not fresh)
    except ValueError as exc:
        raise _failed(str(exc)) from None
    _emit(
        fmt, {"policy": str(final), "examples": len(train)}, f"trained on {what}\npolicy: {final}"
    )


def rl_cmd(
    config: ConfigOpt,
    fresh: Annotated[bool, typer.Option("--fresh", help="Ignore existing checkpoints.")] = False,
    fmt: FmtOpt = Fmt.text,
) -> None:
    """GRPO in PhoneWorld, on devices or mixed (resumes from the latest checkpoint)."""
    _need_train_extra()
    cfg = _config(config)
    from tasklang.policy.envs import load_factory
    from tasklang.policy.io import parse_seeds
    from tasklang.policy.rl import rl_rows, run_rl
    from tasklang.policy.tasks import resolve

    r = cfg.rl
    try:
        factory = load_factory(r.device_factory) if r.device_factory else None
        if r.mode != "phoneworld" and factory is None:
            raise _usage(f"{config}: [rl] mode `{r.mode}` needs `device_factory`")
        init = cfg.resolve(r.init) if r.init else (cfg.model.name or None)
        if init is None:
            raise _usage(f"{config}: [rl] needs `init` (an SFT output) or a [model] name")
        pool = _pool(cfg)
        rows = rl_rows(
            resolve(cfg.data.tasks), parse_seeds(cfg.data.train_seeds), r.mode, r.ratio, seed=r.seed
        )
        with contextlib.redirect_stdout(sys.stderr):
            final, history = run_rl(
                cfg, rows, init, resume=not fresh, device_factory=factory, pool=pool
            )
    except ValueError as exc:
        raise _failed(str(exc)) from None
    per_env: dict[str, list[float]] = {}
    for h in history:
        for k, v in h.items():
            if k.startswith("rewards/") and k.endswith("/mean") and v is not None:
                per_env.setdefault(k.split("/")[1], []).append(float(v))
    means = {env: sum(v) / len(v) for env, v in per_env.items()}
    text = f"policy: {final}\n" + "\n".join(
        f"mean reward {env}: {m:.3f} over {len(per_env[env])} logged steps"
        for env, m in means.items()
    )
    _emit(fmt, {"policy": str(final), "mean_rewards": means, "history": history}, text)


def _pool(cfg: Any) -> Any:
    if not cfg.rl.ray:
        return None
    from tasklang.policy.pool import RayPool

    return RayPool(cfg.rl.ray_actors)


class EnvKind(StrEnum):
    phoneworld = "phoneworld"
    device = "device"


def eval_cmd(
    policy: Annotated[str, typer.Option("--policy", help="A trained policy folder or a hub id.")],
    tasks: Annotated[list[str], typer.Option("--tasks", help="Task ids or glob patterns.")],
    seeds: Annotated[
        str, typer.Option("--seeds", help="Held-out instance seeds, e.g. 1000-1019.")
    ] = "1000-1019",
    env: Annotated[EnvKind, typer.Option("--env")] = EnvKind.phoneworld,
    device_factory: Annotated[
        str, typer.Option("--device-factory", help="`module:callable` giving device sessions.")
    ] = "",
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Folder for trajectories.")
    ] = None,
    max_steps: Annotated[int, typer.Option("--max-steps")] = 12,
    fmt: FmtOpt = Fmt.text,
) -> None:
    """Success per kind (app, mini_app, cross_app) and overall, with 95% Wilson intervals."""
    _need_train_extra()
    from tasklang.policy.envs import load_factory
    from tasklang.policy.evaluate import evaluate, format_rate, summarize
    from tasklang.policy.io import parse_seeds
    from tasklang.policy.sft import load_policy
    from tasklang.policy.tasks import resolve

    try:
        names = resolve(tasks)
        seed_list = parse_seeds(seeds)
        factory = load_factory(device_factory) if device_factory else None
    except ValueError as exc:
        raise _usage(str(exc)) from None
    if env is EnvKind.device and factory is None:
        raise _usage("--env device needs --device-factory")
    try:
        model, tokenizer = load_policy(policy)
    except (OSError, ValueError) as exc:
        raise _usage(f"cannot load policy `{policy}`: {exc}") from None
    rollouts = evaluate(
        model,
        tokenizer,
        [(t, s) for t in names for s in seed_list],
        env.value,
        factory,
        max_steps=max_steps,
        trajectories=out,
    )
    summary = summarize(rollouts)
    text = "\n".join(f"{k:10} {format_rate(v)}" for k, v in summary.items())
    _emit(fmt, {"summary": summary, "trajectories": str(out) if out else None}, text)


def demo_train_cmd(
    config: Annotated[
        Path | None, typer.Option("--config", "-c", help="Defaults to the packaged demo.toml.")
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Folder for models, checkpoints, trajectories.")
    ] = Path("runs/demo"),
    fmt: FmtOpt = Fmt.text,
) -> None:
    """The CPU demonstration: tiny model, SFT, GRPO; held-out success before and after."""
    _need_train_extra()
    from tasklang.policy.demo import run_demo, table

    if config is None:
        from importlib import resources

        config = Path(str(resources.files("tasklang.policy") / "configs" / "demo.toml"))
    cfg = _config(config)
    cfg.sft.output_dir = str((out / "sft").resolve())
    cfg.rl.output_dir = str((out / "rl").resolve())

    def say(line: str) -> None:  # progress on stderr: stdout holds the result only
        typer.echo(line, err=True)

    try:
        with contextlib.redirect_stdout(sys.stderr):
            result = run_demo(cfg, say)
    except ValueError as exc:
        raise _failed(str(exc)) from None
    t = result["timings"]
    text = (
        table(result)
        + f"\n\n{result['instances']} held-out instances, {result['train_examples']} demonstrations, "
        + f"{result['rl_steps']} GRPO steps; total {t['total']:.0f} s ("
        + ", ".join(f"{k} {v:.0f} s" for k, v in t.items() if k != "total")
        + ")"
    )
    _emit(fmt, result, text)


def demo_rollouts_cmd(
    batch: Annotated[int, typer.Option("--batch")] = 8,
    latency: Annotated[
        float, typer.Option("--latency", help="Seconds per environment step.")
    ] = 1.0,
    steps: Annotated[int, typer.Option("--steps")] = 3,
    fmt: FmtOpt = Fmt.text,
) -> None:
    """Time a batch of rollouts stepped one after another and concurrently."""
    from tasklang.policy.bench import bench_rollouts

    if batch < 1 or steps < 1 or latency < 0:
        raise _usage("--batch and --steps must be positive, --latency non-negative")
    result = bench_rollouts(batch, latency, steps)
    text = (
        f"{batch} rollouts x {steps} steps at {latency:g} s/step: one rollout {result['single_s']:.2f} s, "
        f"batch sequential {result['sequential_s']:.2f} s, batch concurrent {result['concurrent_s']:.2f} s "
        f"(speed-up {result['speedup']:.1f}x)"
    )
    _emit(fmt, result, text)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `tasklang` CLI (imports stay lazy: startup stays fast)."""
    train = typer.Typer(
        help="Train policies: SFT and GRPO (PhoneWorld, device, mixed).", no_args_is_help=True
    )
    train.command("sft")(sft_cmd)
    train.command("rl")(rl_cmd)
    app.add_typer(train, name="train")
    app.command("eval")(eval_cmd)
    demo = typer.Typer(help="Demonstrations of the training recipe.", no_args_is_help=True)
    demo.command("train")(demo_train_cmd)
    demo.command("rollouts")(demo_rollouts_cmd)
    app.add_typer(demo, name="demo")
    human = typer.Typer(
        help="Human evaluation: sheets for people with phones.", no_args_is_help=True
    )
    human.command("export")(human_export_cmd)
    human.command("agreement")(human_agreement_cmd)
    app.add_typer(human, name="human-eval")


def human_export_cmd(
    tasks: Annotated[list[str], typer.Option("--tasks", help="Task ids or glob patterns.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The sheet to write (CSV).")],
    seeds: Annotated[str, typer.Option("--seeds")] = "1000-1019",
    trajectories: Annotated[
        Path | None,
        typer.Option("--trajectories", help="A `tasklang eval --out` folder: fills auto_success."),
    ] = None,
    fmt: FmtOpt = Fmt.text,
) -> None:
    """Write a sheet of task instances with setup instructions for a person with a phone."""
    from tasklang.policy.human import auto_verdicts, export_sheet
    from tasklang.policy.io import parse_seeds
    from tasklang.policy.tasks import resolve

    try:
        instances = [(t, s) for t in resolve(tasks) for s in parse_seeds(seeds)]
    except ValueError as exc:
        raise _usage(str(exc)) from None
    auto = auto_verdicts(trajectories, instances) if trajectories else None
    n = export_sheet(out, instances, auto)
    _emit(fmt, {"sheet": str(out), "rows": n}, f"wrote {n} instance(s) to {out}")


def human_agreement_cmd(
    sheet: Annotated[Path, typer.Argument(help="A sheet with human_success filled in.")],
    fmt: FmtOpt = Fmt.text,
) -> None:
    """The automatic checkers' agreement with the person's verdicts."""
    from tasklang.policy.human import SheetError, agreement, read_verdicts

    try:
        rows = read_verdicts(sheet)
    except SheetError as exc:
        raise _usage(str(exc)) from None
    s = agreement(rows).summary()
    acc = "-" if s["accuracy"] is None else f"{100 * s['accuracy']:.1f}%"
    lo, hi = s["accuracy_ci95"]
    text = (
        f"compared {s['compared']} (unjudged {s['unjudged']}): accuracy {acc} "
        f"[{100 * lo:.1f}, {100 * hi:.1f}], false successes {s['false_successes']}, "
        f"false failures {s['false_failures']}"
    )
    _emit(fmt, s, text)
