"""A wall-clock budget for a training run: stop (and save) once the time is spent."""

from __future__ import annotations

import time
from typing import Any


def time_budget(seconds: float) -> Any:
    """A TrainerCallback that ends training after the step during which ``seconds`` ran out.

    The stop is an ordinary end of training: the trainer saves its final state, and the
    number of steps done is in ``trainer.state.global_step``.
    """
    from transformers import TrainerCallback

    class TimeBudget(TrainerCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            self.started = 0.0
            self.stopped_at: int | None = None

        def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            self.started = time.monotonic()

        def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            if time.monotonic() - self.started >= seconds:
                control.should_training_stop = True
                control.should_save = True
                self.stopped_at = state.global_step

    return TimeBudget()
