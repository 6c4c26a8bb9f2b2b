"""PhoneWorld: a fast, resettable mock phone with the observations and actions of a real one.

Importing this package registers the Gymnasium environment ``tasklang/PhoneWorld-v0``
(``tasklang.envs.phoneworld.env.PhoneWorldEnv``).
"""

import gymnasium as _gym

ENV_ID = "tasklang/PhoneWorld-v0"

if ENV_ID not in _gym.registry:
    _gym.register(ENV_ID, entry_point="tasklang.envs.phoneworld.env:PhoneWorldEnv")

# apps rebuilt from recorded GUI usage (envs/phoneworld/reconstruct): the entry point is a string,
# so registering costs nothing until the environment is made
RECONSTRUCTED_ENV_ID = "tasklang/Reconstructed-v0"

if RECONSTRUCTED_ENV_ID not in _gym.registry:
    _gym.register(
        RECONSTRUCTED_ENV_ID,
        entry_point="tasklang.envs.phoneworld.reconstruct.env:ReconstructedEnv",
    )
