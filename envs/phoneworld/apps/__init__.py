"""The apps installed on every PhoneWorld phone: each module here defines one ``App``
subclass and names it ``APP``; they are found by listing this package."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from tasklang.envs.phoneworld.app import App


@cache
def app_classes() -> dict[str, type[App]]:
    """App model name -> App class, for every app module of this package."""
    found: dict[str, type[App]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        cls = getattr(module, "APP", None)
        if isinstance(cls, type) and issubclass(cls, App) and cls.model:
            found[cls.model] = cls
    return found


def install() -> dict[str, App]:
    """A fresh instance of every app (apps keep no state of their own; this is cheap)."""
    return {name: cls() for name, cls in app_classes().items()}
