"""Rebuild runnable PhoneWorld apps from recorded GUI usage (DroidBot, AutoDroid, trajectories).

Importing this package registers the Gymnasium environment ``tasklang/Reconstructed-v0``
(``tasklang.envs.phoneworld.reconstruct.env.ReconstructedEnv``); without importing it,
``gymnasium.make("tasklang.envs.phoneworld.reconstruct:tasklang/Reconstructed-v0", ...)``
imports it first.
"""

import gymnasium as _gym

ENV_ID = "tasklang/Reconstructed-v0"

if ENV_ID not in _gym.registry:
    _gym.register(ENV_ID, entry_point="tasklang.envs.phoneworld.reconstruct.env:ReconstructedEnv")
