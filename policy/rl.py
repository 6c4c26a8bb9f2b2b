"""RL with TRL's GRPOTrainer: PhoneWorld, device and mixed runs differ only in their mixture.

``environment_factory`` maps ``phoneworld`` and ``device`` to :mod:`tasklang.policy.envs`
classes; every example names its environment, so one run can mix both. The reward is each
environment's ``get_reward`` (the compiled verifier), which TRL logs per environment class
(``rewards/PhoneWorldEnvironment/mean``, ``rewards/DeviceEnvironment/mean``).

TRL's tool loop calls the tools of a batch one sample after another. :class:`PhoneGRPOTrainer`
runs the same loop but executes the tool calls of all samples of an iteration concurrently
(``run_concurrently``), so environments with seconds of latency per step overlap.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

from tasklang.policy.config import Config, parse_ratio
from tasklang.policy.data import prompt_messages
from tasklang.policy.rollout import run_concurrently
from tasklang.policy.sft import FINAL, has_accelerator, latest_checkpoint, load_policy, with_budget


def rl_rows(
    tasks: list[str], seeds: list[int], mode: str, ratio: str = "1:1",
    device_tasks: list[str] | None = None, seed: int = 0,
) -> list[dict[str, Any]]:  # fmt: skip
    """GRPO prompts: one row per (task, seed), each routed to its environment.

    ``mixed`` mode interleaves PhoneWorld and device rows at ``ratio`` (PhoneWorld:device).
    """
    from tasklang.policy.tasks import compiled_task
    from tasklang.sampling import render_goal, sample_instance

    def row(task: str, s: int, env: str) -> dict[str, Any]:
        compiled = compiled_task(task)
        goal = render_goal(compiled.task, sample_instance(compiled, s).params)
        return {"prompt": prompt_messages(goal), "task": task, "seed": s, "environment": env}

    rng = random.Random(seed)
    pw = [row(t, s, "phoneworld") for t in tasks for s in seeds]
    dev = [row(t, s, "device") for t in (device_tasks or tasks) for s in seeds]
    rng.shuffle(pw)
    rng.shuffle(dev)
    if mode == "phoneworld":
        return pw
    if mode == "device":
        return dev
    p, d = parse_ratio(ratio)
    out: list[dict[str, Any]] = []
    while (pw or dev) and ((p and pw) or (d and dev)):
        out.extend(pw[:p])
        out.extend(dev[:d])
        del pw[:p], dev[:d]
    return out


def trainer_class() -> type[Any]:
    """GRPOTrainer whose tool loop steps all samples' environments at once."""
    from trl import GRPOTrainer  # type: ignore[attr-defined]
    from trl.chat_template_utils import parse_response

    class PhoneGRPOTrainer(GRPOTrainer):  # type: ignore[misc]
        tool_workers: int = 8

        def _tool_call_loop(
            self, prompts: Any, prompt_ids: Any, completion_ids: Any, completions: Any,
            logprobs: Any, images: Any, multimodal_fields: Any,
        ) -> Any:  # fmt: skip
            internals = ("_get_tool_suffix_ids", "_generate_single_turn", "_sync_tool_dicts")
            if (
                images is not None
                or multimodal_fields
                or self._is_vlm
                or not all(hasattr(self, name) for name in internals)
            ):
                return super()._tool_call_loop(  # type: ignore[no-untyped-call]
                    prompts,
                    prompt_ids,
                    completion_ids,
                    completions,
                    logprobs,
                    images,
                    multimodal_fields,
                )
            t: Any = self
            tool_mask = [[1] * len(ids) for ids in completion_ids]
            calls = [c[0].get("tool_calls") for c in completions]
            pending = [i for i, c in enumerate(calls) if c]
            count = failures = iteration = 0
            while pending and iteration < t.max_tool_calling_iterations:
                before = {i: (len(completions[i]), len(prompts[i])) for i in pending}
                jobs = []
                for i in pending:
                    prompts[i].append(completions[i][-1])
                    jobs.append(
                        functools.partial(t._run_calls, i, completions[i][-1]["tool_calls"])
                    )
                results = run_concurrently(jobs, t.tool_workers)
                for i, res in zip(pending, results, strict=True):
                    for name, content, failed in res:
                        count += 1
                        failures += failed
                        msg = {"role": "tool", "name": name, "content": content}
                        prompts[i].append(msg)
                        completions[i].append(msg)
                full = {}
                for i in pending:
                    tools_msgs: list[dict[str, Any]] = []
                    for m in reversed(completions[i]):
                        if m["role"] != "tool":
                            break
                        tools_msgs.insert(0, m)
                    full[i] = prompt_ids[i] + completion_ids[i] + t._get_tool_suffix_ids(tools_msgs)
                max_len = t.model.config.max_position_embeddings
                keep = []
                for i in pending:
                    if (
                        len(full[i]) - len(prompt_ids[i]) > t.max_completion_length
                        or len(full[i]) >= max_len
                    ):
                        n_c, n_p = before[i]
                        del completions[i][n_c:]
                        del prompts[i][n_p:]
                    else:
                        keep.append(i)
                pending = keep
                if not pending:
                    break
                post_ids, post_logprobs = t._generate_single_turn(
                    [full[i] for i in pending], None, {}, num_generations=1
                )
                for k, i in enumerate(pending):
                    used = len(full[i]) - len(prompt_ids[i])
                    excess = used + len(post_ids[k]) - t.max_completion_length
                    if excess > 0:
                        post_ids[k] = post_ids[k][: len(post_ids[k]) - excess]
                        if logprobs is not None:
                            post_logprobs[k] = post_logprobs[k][: len(post_ids[k])]
                    tool_len = len(full[i]) - len(prompt_ids[i]) - len(completion_ids[i])
                    tool_mask[i] += [0] * tool_len + [1] * len(post_ids[k])
                    if logprobs is not None:
                        logprobs[i] += [0.0] * tool_len + post_logprobs[k]
                    completion_ids[i] = full[i][len(prompt_ids[i]) :] + post_ids[k]
                parsed = []
                for k, i in enumerate(pending):
                    tools = (
                        t._env_tools[t._batch_environments[i]]
                        if t.environment_factories is not None
                        else t.tools
                    )
                    parsed.append(
                        parse_response(t._tokenizer, post_ids[k], prefix=full[i], tools=tools)
                        if post_ids[k]
                        else {}
                    )
                for k, i in enumerate(pending):
                    if parsed[k]:
                        completions[i].append(parsed[k])
                pending = [i for k, i in enumerate(pending) if parsed[k].get("tool_calls")]
                iteration += 1
            return (
                tool_mask,
                completions,
                completion_ids,
                logprobs,
                count,
                failures,
                [[] for _ in completion_ids],
            )

        def _generate_and_score_completions(self, inputs: list[dict[str, Any]]) -> Any:
            if self.environment_factories is not None:
                self._prefetch_resets(inputs)
            return super()._generate_and_score_completions(inputs)  # type: ignore[no-untyped-call]

        def _prefetch_resets(self, inputs: list[dict[str, Any]]) -> None:
            """Start the batch's episodes concurrently, on the instances TRL will hand out
            (the pool's first free instances per environment, in row order); TRL's own
            sequential ``reset`` calls then find them started."""
            t: Any = self
            cursor: dict[Any, int] = {}
            jobs = []
            for x in inputs:
                name = x.get("environment") if t._multi_environment else None
                pool = t._environment_pool.get(name)
                if pool is None:
                    return  # an unknown environment: TRL reports it
                index = cursor.get(name, 0)
                if index == len(pool):
                    pool.append(t.environment_factories[name]())
                cursor[name] = index + 1
                env = pool[index]
                if hasattr(env, "_prefetch"):
                    kwargs = {k: v for k, v in x.items() if k != "environment"}
                    jobs.append(functools.partial(env._prefetch, **kwargs))
            run_concurrently(jobs, self.tool_workers)

        def _run_calls(
            self, i: int, tool_calls: list[dict[str, Any]]
        ) -> list[tuple[str, Any, int]]:
            """Run one sample's tool calls in order: (name, content, failed)."""
            out: list[tuple[str, Any, int]] = []
            table: dict[str, Any] = self._sync_tool_dicts[i]
            for call in tool_calls:
                if call.get("type") != "function":
                    out.append(
                        (
                            call.get("name", "unknown"),
                            str({"error": "unsupported tool call type"}),
                            1,
                        )
                    )
                    continue
                fn = call["function"]
                name = fn["name"]
                try:
                    if name not in table:
                        raise ValueError(f"Tool {name} not found.")
                    result = table[name](**fn["arguments"])
                    out.append((name, result if isinstance(result, list) else str(result), 0))
                except Exception as exc:
                    out.append((name, str({"error": str(exc)}), 1))
            return out

    return PhoneGRPOTrainer


def build_trainer(
    config: Config, rows: list[dict[str, Any]], model_path: str | Path,
    device_factory: Any = None, pool: Any = None, callbacks: list[Any] | None = None,
) -> Any:  # fmt: skip
    """The GRPO trainer of a configuration over ``rows`` (see :func:`rl_rows`)."""
    from datasets import Dataset  # type: ignore[import-untyped]
    from trl import GRPOConfig  # type: ignore[attr-defined]

    from tasklang.policy.envs import environment_classes

    r = config.rl
    out = config.resolve(r.output_dir)
    model, tokenizer = load_policy(model_path)
    classes = environment_classes(device_factory, latency=r.latency, pool=pool)
    used = sorted({row["environment"] for row in rows})
    factories = {name: classes[name] for name in used}
    args = GRPOConfig(
        output_dir=str(out),
        max_steps=r.max_steps,
        learning_rate=r.learning_rate,
        per_device_train_batch_size=r.batch_size,
        num_generations=r.num_generations,
        max_completion_length=r.max_completion_length,
        max_tool_calling_iterations=r.max_tool_calls,
        temperature=r.temperature,
        beta=r.beta,
        save_strategy="steps",
        save_steps=r.save_steps,
        save_total_limit=r.save_total_limit,
        logging_steps=r.logging_steps,
        seed=r.seed,
        report_to=[],
        use_cpu=not has_accelerator(),
        disable_tqdm=True,
        log_completions=False,
    )
    cls = trainer_class()
    cls.tool_workers = max(1, r.concurrency)
    return cls(
        model=model,
        args=args,
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        environment_factory=factories,
        peft_config=None,
        callbacks=with_budget(callbacks, r.time_limit),
    )


def run_rl(
    config: Config, rows: list[dict[str, Any]], model_path: str | Path, resume: bool = True,
    device_factory: Any = None, pool: Any = None, callbacks: list[Any] | None = None,
) -> tuple[Path, list[dict[str, Any]]]:  # fmt: skip
    """Train; the policy folder and the logged history (rewards per environment included)."""
    trainer = build_trainer(config, rows, model_path, device_factory, pool, callbacks)
    out = config.resolve(config.rl.output_dir)
    checkpoint = latest_checkpoint(out) if resume else None
    trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    final = out / FINAL
    trainer.save_model(str(final))
    trainer.processing_class.save_pretrained(str(final))
    return final, list(trainer.state.log_history)
