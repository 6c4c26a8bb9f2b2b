"""Real Android devices through uiautomator2 and adb: the PhoneWorld contract on a phone.

Importing this package registers the Gymnasium environment ``tasklang/Device-v0``
(``tasklang.envs.device.env.DeviceEnv``; give it ``task``, ``driver`` and ``transport``).
"""

import gymnasium as _gym

ENV_ID = "tasklang/Device-v0"

if ENV_ID not in _gym.registry:
    _gym.register(ENV_ID, entry_point="tasklang.envs.device.env:DeviceEnv")
