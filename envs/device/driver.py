"""Drivers: the few things an episode does to a phone's screen.

``U2Driver`` uses uiautomator2 (connect by serial); ``ShellDriver`` uses plain shell
commands over any transport (adb, or a replay of recorded command/response pairs, which is
how episodes are tested without a phone). Every call has a timeout; a driver raises only
``TransportError`` subclasses.
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from tasklang.envs.device import parse
from tasklang.envs.device.transport import DeviceTimeout, Disconnected, Transport, run_argv

T = TypeVar("T")
KEYS = {"back": "KEYCODE_BACK", "home": "KEYCODE_HOME", "enter": "KEYCODE_ENTER"}


class Driver(Protocol):
    def dump(self) -> str: ...
    def screenshot(self) -> bytes: ...
    def click(self, x: float, y: float) -> None: ...
    def long_click(self, x: float, y: float) -> None: ...
    def double_click(self, x: float, y: float) -> None: ...
    def text(self, value: str, clear: bool = False) -> None: ...
    def swipe(self, x1: float, y1: float, x2: float, y2: float) -> None: ...
    def key(self, name: str) -> None: ...
    def app_start(self, package: str) -> None: ...
    def current(self) -> tuple[str, str]: ...
    def window_size(self) -> tuple[int, int]: ...
    def wait(self, seconds: float) -> None: ...


class ShellDriver:
    """A driver made of shell commands: `uiautomator dump`, `input`, `monkey`, `dumpsys`."""

    DUMP = "/data/local/tmp/tasklang-window.xml"

    def __init__(
        self, transport: Transport, timeout: float = 20.0, size: tuple[int, int] = (1080, 2400)
    ) -> None:
        self.t, self.timeout, self.size = transport, timeout, size

    def _run(self, *argv: str) -> str:
        return run_argv(self.t, argv, self.timeout)

    def _read(self, *argv: str) -> str:
        return run_argv(self.t, argv, self.timeout, retries=1)

    def dump(self) -> str:
        parse.check_dumped(self._read("uiautomator", "dump", self.DUMP))
        return self._read("cat", self.DUMP)

    def screenshot(self) -> bytes:
        return b""  # `screencap -p` is binary; the uiautomator2 driver provides screenshots

    def click(self, x: float, y: float) -> None:
        self._run("input", "tap", str(int(x)), str(int(y)))

    def long_click(self, x: float, y: float) -> None:
        self._run("input", "swipe", *[str(int(v)) for v in (x, y, x, y)], "800")

    def double_click(self, x: float, y: float) -> None:
        self.click(x, y)
        self.click(x, y)

    def text(self, value: str, clear: bool = False) -> None:
        if clear:
            self._run("input", "keyevent", "KEYCODE_MOVE_END", *["KEYCODE_DEL"] * 40)
        # `input text` reads `%s` as a space; the value stays one quoted argument
        self._run("input", "text", value.replace("%", "%%").replace(" ", "%s"))

    def swipe(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self._run("input", "swipe", *[str(int(v)) for v in (x1, y1, x2, y2)], "300")

    def key(self, name: str) -> None:
        self._run("input", "keyevent", KEYS[name])

    def app_start(self, package: str) -> None:
        self._run("monkey", "-p", package, "-c", "android.intent.category.LAUNCHER", "1")

    def current(self) -> tuple[str, str]:
        return parse.parse_foreground(self._read("dumpsys", "window"))

    def window_size(self) -> tuple[int, int]:
        return self.size

    def wait(self, seconds: float) -> None:
        time.sleep(seconds)


class U2Driver:
    """A phone through uiautomator2 (``pip install tasklang[device]``); every call runs in a
    worker thread and is abandoned after ``timeout`` seconds."""

    def __init__(self, serial: str, timeout: float = 20.0) -> None:
        import uiautomator2  # type: ignore[import-untyped]

        self.timeout = timeout
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        self.d: Any = self._call(lambda: uiautomator2.connect(serial))

    def _call(self, fn: Callable[[], T], retries: int = 0) -> T:
        """Run ``fn`` with the timeout; a read (``retries=1``) gets one more try."""
        for attempt in range(retries + 1):
            future = self.pool.submit(fn)
            try:
                return future.result(timeout=self.timeout)
            except concurrent.futures.TimeoutError:
                if attempt == retries:
                    raise DeviceTimeout(
                        f"uiautomator2 did not answer in {self.timeout:g}s"
                    ) from None
            except (DeviceTimeout, Disconnected):
                raise
            except Exception as exc:  # uiautomator2 raises many kinds: all mean a lost phone
                raise Disconnected(f"uiautomator2: {type(exc).__name__}: {exc}") from None
        raise AssertionError("unreachable")

    def dump(self) -> str:
        return str(self._call(lambda: self.d.dump_hierarchy(), retries=1))

    def screenshot(self) -> bytes:
        import io

        image = self._call(lambda: self.d.screenshot())
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        return buf.getvalue()

    def click(self, x: float, y: float) -> None:
        self._call(lambda: self.d.click(x, y))

    def long_click(self, x: float, y: float) -> None:
        self._call(lambda: self.d.long_click(x, y))

    def double_click(self, x: float, y: float) -> None:
        self._call(lambda: self.d.double_click(x, y))

    def text(self, value: str, clear: bool = False) -> None:
        self._call(lambda: self.d.send_keys(value, clear=clear))

    def swipe(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self._call(lambda: self.d.swipe(x1, y1, x2, y2, 0.3))

    def key(self, name: str) -> None:
        self._call(lambda: self.d.press(name))

    def app_start(self, package: str) -> None:
        self._call(lambda: self.d.app_start(package))

    def current(self) -> tuple[str, str]:
        info = self._call(lambda: self.d.app_current(), retries=1)
        return str(info.get("package", "")), str(info.get("activity", ""))

    def window_size(self) -> tuple[int, int]:
        w, h = self._call(lambda: self.d.window_size(), retries=1)
        return int(w), int(h)

    def wait(self, seconds: float) -> None:
        time.sleep(seconds)
