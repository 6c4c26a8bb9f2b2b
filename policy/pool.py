"""An environment pool on Ray: actors own PhoneWorld episodes, rollouts hold remote handles.

``RayPool(n)`` starts ``n`` actors (joining a running cluster, or starting a local one); each
``session()`` is a :class:`RemoteSession` bound round-robin to one actor, with the
:class:`~tasklang.policy.envs.Session` interface, so the GRPO environment classes use it in
place of an in-process episode (``[rl] ray = true``). Many sessions share one actor; their
episodes are kept apart by id.
"""

from __future__ import annotations

import itertools
import threading
from typing import Any

from tasklang.policy.envs import PhoneWorldSession, Turn
from tasklang.verifiers.verdict import Verdict


class EpisodeHost:
    """The actor's body: PhoneWorld sessions by id."""

    def __init__(self, randomize: bool = False) -> None:
        self.randomize = randomize
        self.sessions: dict[int, PhoneWorldSession] = {}

    def reset(self, sid: int, task: str, seed: int) -> Turn:
        session = self.sessions[sid] = PhoneWorldSession(randomize=self.randomize)
        return session.reset(task, seed)

    def step(self, sid: int, action: dict[str, Any]) -> Turn:
        return self.sessions[sid].step(action)

    def verdict(self, sid: int) -> Verdict | None:
        return self.sessions[sid].verdict()

    def close(self, sid: int) -> None:
        self.sessions.pop(sid, None)

    def count(self) -> int:
        return len(self.sessions)


class RemoteSession:
    """A session whose episode lives in a Ray actor."""

    def __init__(self, actor: Any, sid: int) -> None:
        self.actor, self.sid = actor, sid

    def reset(self, task: str, seed: int) -> Turn:
        import ray

        turn: Turn = ray.get(self.actor.reset.remote(self.sid, task, seed))
        return turn

    def step(self, action: dict[str, Any]) -> Turn:
        import ray

        turn: Turn = ray.get(self.actor.step.remote(self.sid, action))
        return turn

    def verdict(self) -> Verdict | None:
        import ray

        verdict: Verdict | None = ray.get(self.actor.verdict.remote(self.sid))
        return verdict


class RayPool:
    """``actors`` Ray actors hosting PhoneWorld episodes."""

    def __init__(
        self, actors: int = 2, randomize: bool = False, init: dict[str, Any] | None = None
    ) -> None:
        import ray

        if actors < 1:
            raise ValueError("a Ray pool needs at least one actor")
        if not ray.is_initialized():
            ray.init(**(init or {"include_dashboard": False, "log_to_driver": False}))
        host: Any = ray.remote(num_cpus=0)(EpisodeHost)
        self.actors: list[Any] = [host.remote(randomize) for _ in range(actors)]
        self._ids = itertools.count()
        self._lock = threading.Lock()

    def session(self) -> RemoteSession:
        with self._lock:
            sid = next(self._ids)
        return RemoteSession(self.actors[sid % len(self.actors)], sid)

    def counts(self) -> list[int]:
        """Episodes each actor holds."""
        import ray

        return [int(n) for n in ray.get([a.count.remote() for a in self.actors])]

    def shutdown(self) -> None:
        import ray

        for a in self.actors:
            ray.kill(a)
        self.actors = []
