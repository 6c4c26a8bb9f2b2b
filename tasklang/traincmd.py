"""`tasklang train ...`, `tasklang eval` and `tasklang demo train`: the policy module's commands."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `tasklang` CLI (imports stay lazy: startup stays fast)."""
