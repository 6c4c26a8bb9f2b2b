"""`tasklang device ...`: plan, run and check tasks on a real Android phone (envs/device)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `tasklang` CLI (imports stay lazy: startup stays fast)."""
