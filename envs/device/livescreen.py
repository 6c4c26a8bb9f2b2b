"""The screen commands of a screen probe (`am force-stop`, `monkey`, `input`), answered by a
live PhoneWorld phone: the world PhoneWorld's transport answers for, started afresh, so what
a screen probe reads is what PhoneWorld's own screens show, not its state directly.
"""

from __future__ import annotations

import re
from typing import Any

from tasklang.envs.device.transport import CommandFailed
from tasklang.verifiers.snapshot import WorldSnapshot

_TYPED = re.compile(r"%(s|%)")  # how `input text` is given a space and a percent sign
KEYS = {"KEYCODE_BACK": "navigate_back", "KEYCODE_HOME": "navigate_home",
        "KEYCODE_ENTER": "keyboard_enter"}  # fmt: skip


class LiveScreen:
    """A PhoneWorld phone started from a world snapshot (no app open), on which the screen
    commands act. Starting it again (`am force-stop`) starts it from the snapshot again: a
    screen probe only reads, so the world is what it was."""

    def __init__(self, world: WorldSnapshot) -> None:
        from tasklang.envs.phoneworld.apps import install
        from tasklang.envs.phoneworld.phone import Phone

        self.phone = Phone(install())
        self.phone.load(world)

    def xml(self) -> str:
        return str(self.phone.xml())

    def monkey(self, argv: list[str], line: str) -> str:
        """`monkey -p PKG -c android.intent.category.LAUNCHER 1`: the app whose launcher
        icon the package has (a super-app, not the mini programs inside it)."""
        package = argv[argv.index("-p") + 1] if "-p" in argv[:-1] else ""
        for name, app in self.phone.apps.items():
            if app.package == package and app.host is None:
                self.phone.launch(name)
                self.phone.invalidate()
                return "Events injected: 1\n"
        raise CommandFailed(line, 1, "** No activities found to run, monkey aborted.")

    def am_start(self, argv: list[str], line: str) -> str:
        """`am start -W -n PKG/ACTIVITY`: the app of that package (a super-app, not the mini
        programs inside it), as `am start` reports it."""
        target = argv[argv.index("-n") + 1] if "-n" in argv[:-1] else ""
        package, _, activity = target.partition("/")
        for name, app in self.phone.apps.items():
            if app.package == package and app.host is None:
                self.phone.launch(name)
                self.phone.invalidate()
                return (
                    f"Starting: Intent {{ cmp={target} }}\nStatus: ok\nLaunchState: COLD\n"
                    f"Activity: {package}/{activity}\nComplete\n"
                )
        raise CommandFailed(line, 1, f"Error: Activity class {{{target}}} does not exist.")

    def input(self, argv: list[str], line: str) -> str:
        """`input tap X Y`, `input swipe X1 Y1 X2 Y2 [MS]` (a drag: the list moves as far
        as the finger), `input text TEXT` (`%s` is a space), `input keyevent KEY`."""
        kind, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
        try:
            if kind == "tap" and len(args) == 2:
                self.act({"action_type": "click", "x": int(args[0]), "y": int(args[1])})
            elif kind == "swipe" and len(args) in (4, 5):
                x1, y1, x2, y2 = (int(v) for v in args[:4])
                if abs(y1 - y2) >= abs(x1 - x2):
                    self.phone.drag(y1 - y2)
            elif kind == "text" and len(args) == 1:
                text = _TYPED.sub(lambda m: " " if m[1] == "s" else "%", args[0])
                self.act({"action_type": "input_text", "text": text})
            elif kind == "keyevent" and len(args) == 1 and args[0] in KEYS:
                self.act({"action_type": KEYS[args[0]]})
            else:
                raise ValueError(kind)
        except ValueError:
            raise CommandFailed(line, 1, "usage: input [tap|swipe|text|keyevent] ...") from None
        return ""

    def act(self, action: dict[str, Any]) -> None:
        self.phone.act(action)  # a tap on nothing does nothing, as on a phone
