"""A tiny causal LM and tokenizer built on the spot (nothing downloaded), for tests and CPU runs.

The tokenizer is a byte-level BPE trained on the given texts (demonstrations and tool schemas),
with the special tokens and the tool-calling chat template of the Qwen2.5 family, which TRL's
SFTTrainer (assistant-only loss through its training variant) and GRPOTrainer (tool-call
parsing) both know. The model is a small Qwen2 decoder initialized from a seed.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

SPECIAL_TOKENS = [
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>",
    "<tool_response>", "</tool_response>", "<tools>", "</tools>",
]  # fmt: skip


def chat_template() -> str:
    """The tool-calling chat template the tiny tokenizer carries."""
    from trl.chat_template_utils import qwen2_5_chat_template

    return str(qwen2_5_chat_template)


def build_tokenizer(texts: Iterable[str], vocab_size: int = 2048) -> Any:
    """A byte-level BPE tokenizer trained on ``texts``, with the chat template set."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(list(texts), trainer=trainer)
    fast = PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=tok,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=SPECIAL_TOKENS[1:],
    )
    fast.chat_template = chat_template()
    fast.padding_side = "left"
    return fast


def corpus(conversations: Iterable[list[dict[str, Any]]], tools: list[dict[str, Any]]) -> list[str]:
    """The texts a tiny tokenizer is trained on: conversations rendered with the template."""
    from jinja2 import Template

    template = Template(chat_template())
    out = []
    for messages in conversations:
        out.append(template.render(messages=messages, tools=tools, add_generation_prompt=False))
    return out


def build_model(
    tokenizer: Any, hidden: int = 128, layers: int = 2, heads: int = 4, seed: int = 0
) -> Any:
    """A small Qwen2 decoder sized for ``tokenizer``, initialized from ``seed``."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(seed)
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        intermediate_size=hidden * 3,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=max(1, heads // 2),
        max_position_embeddings=8192,
        tie_word_embeddings=True,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
    )
    model = Qwen2ForCausalLM(config)
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    return model


def build_tiny(
    out: Path,
    conversations: Iterable[list[dict[str, Any]]],
    vocab_size: int = 2048,
    hidden: int = 128,
    layers: int = 2,
    heads: int = 4,
    seed: int = 0,
) -> Path:
    """Build and save a tiny model and tokenizer to ``out``; a path loadable like a hub id."""
    from tasklang.policy.actions import tool_schemas

    tokenizer = build_tokenizer(corpus(conversations, tool_schemas()), vocab_size)
    model = build_model(tokenizer, hidden, layers, heads, seed)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
