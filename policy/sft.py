"""Supervised fine-tuning with TRL's SFTTrainer on tool-calling conversations.

The loss covers the assistant turns only (the tool calls and the closing message): labels are
-100 on system, user and tool tokens. Checkpoints are written every ``save_steps``; a run that
finds checkpoints in its output folder resumes from the latest (optimizer, scheduler, RNG and
data position included), so an interrupted run continues where it stopped.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tasklang.policy.config import Config
from tasklang.policy.data import Example

FINAL = "final"  # the trained policy's folder inside the output folder


def with_labels(dataset: Any) -> Any:
    """Add ``labels``: the token ids on assistant tokens, -100 elsewhere."""

    def label(row: dict[str, Any]) -> dict[str, Any]:
        return {
            "labels": [
                t if m else -100
                for t, m in zip(row["input_ids"], row["assistant_masks"], strict=True)
            ]
        }

    return dataset.map(label, remove_columns=["assistant_masks"])


def latest_checkpoint(output_dir: Path) -> Path | None:
    """The newest complete ``checkpoint-N`` folder, or None."""
    best: tuple[int, Path] | None = None
    for p in output_dir.glob("checkpoint-*"):
        m = re.fullmatch(r"checkpoint-(\d+)", p.name)
        if m and (p / "trainer_state.json").is_file():
            n = int(m.group(1))
            if best is None or n > best[0]:
                best = (n, p)
    return best[1] if best else None


def load_policy(path: str | Path, lora: bool = False) -> tuple[Any, Any]:
    """A causal LM and its tokenizer from a hub id or a folder (a saved LoRA adapter included)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = str(path)
    if (Path(path) / "adapter_config.json").is_file():
        from peft import AutoPeftModelForCausalLM

        model = AutoPeftModelForCausalLM.from_pretrained(path)
        model = model.merge_and_unload() if not lora else model
    else:
        model = AutoModelForCausalLM.from_pretrained(path)
    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    return model, tokenizer


def lora_config(config: Config) -> Any:
    from peft import LoraConfig

    m = config.model
    return LoraConfig(
        r=m.lora_r, lora_alpha=m.lora_alpha, lora_dropout=m.lora_dropout, task_type="CAUSAL_LM",
        target_modules="all-linear",
    )  # fmt: skip


def run_sft(
    config: Config,
    train: list[Example],
    model_path: str | Path,
    resume: bool = True,
    callbacks: list[Any] | None = None,
) -> Path:
    """Train on ``train`` from ``model_path``; the policy folder (``<output_dir>/final``)."""
    from trl import SFTConfig, SFTTrainer  # type: ignore[attr-defined]

    from tasklang.policy.data import to_dataset, tokenize_for_sft

    s = config.sft
    out = config.resolve(s.output_dir)
    model, tokenizer = load_policy(model_path)
    dataset = with_labels(tokenize_for_sft(to_dataset(train), tokenizer, s.max_length))
    args = SFTConfig(
        output_dir=str(out),
        num_train_epochs=s.epochs,
        max_steps=s.max_steps,
        learning_rate=s.learning_rate,
        per_device_train_batch_size=s.batch_size,
        gradient_accumulation_steps=s.gradient_accumulation,
        max_length=s.max_length,
        save_strategy="steps",
        save_steps=s.save_steps,
        save_total_limit=s.save_total_limit,
        logging_steps=s.logging_steps,
        seed=s.seed,
        report_to=[],
        use_cpu=not has_accelerator(),
        lr_scheduler_type="cosine",
        warmup_steps=0,
        disable_tqdm=True,
        dataloader_num_workers=0,
    )
    trainer = SFTTrainer(
        model=model,
        args=args,
        train_dataset=dataset,
        processing_class=tokenizer,
        peft_config=lora_config(config) if config.model.lora else None,
        callbacks=with_budget(callbacks, s.time_limit),
    )
    checkpoint = latest_checkpoint(out) if resume else None
    trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    final = out / FINAL
    trainer.save_model(str(final))
    tokenizer.save_pretrained(str(final))
    (final / "tasklang_sft.json").write_text(
        json.dumps({"examples": len(train), "steps": trainer.state.global_step,
                    "resumed_from": str(checkpoint) if checkpoint else None}, indent=2) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    return final


def with_budget(callbacks: list[Any] | None, seconds: float) -> list[Any] | None:
    if seconds <= 0:
        return callbacks
    from tasklang.policy.budget import time_budget

    return [*(callbacks or []), time_budget(seconds)]


def has_accelerator() -> bool:
    """Whether torch sees a GPU (training and GRPO both use it when there is one)."""
    import torch

    return bool(torch.cuda.is_available())
