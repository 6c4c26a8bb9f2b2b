"""An HTML report of checked trajectories: one self-contained file a browser opens offline.

:func:`render_html` takes ``(trajectory, verdict)`` pairs and returns one HTML document with
no external resources (inline CSS, no scripts, screenshots embedded as ``data:`` URIs, a
Content-Security-Policy that forbids any network load). For each trajectory it shows:

* a summary: task id, goal, success badge, score, declared and expected status, answer,
  safety violations, notes, environment and instance;
* the clause table: id, role, subgoal, weight, pass/fail, summary, evidence (with links to
  the steps it points at, records and UI nodes) and the clause's source location;
* every step: the screenshot with the action drawn over it in an SVG overlay (in the
  screenshot's pixel coordinates, scaled from screen coordinates), or a wireframe of the
  UI element bounds when there is no screenshot; the element acted on; the thought; and
  chips linking the clauses whose evidence points at that step.

Trajectories are untrusted input: every text is escaped, and a screenshot is embedded only
when its bytes are a PNG, JPEG, GIF or WebP image.
"""

from __future__ import annotations

import base64
import html
import json
import math
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tasklang.verifiers.snapshot import UIElement, UiParseError, parse_ui_xml
from tasklang.verifiers.trajectory import Action, Step, Trajectory
from tasklang.verifiers.verdict import ClauseResult, Evidence, Verdict

__all__ = ["image_info", "render_html"]

MAX_IMAGE_BYTES = 32 * 1024 * 1024
"""Screenshots larger than this are not embedded (a placeholder says so)."""

_TAPS = {"click": "tap", "double_tap": "double tap", "long_press": "long press"}
_BADGES = {
    "navigate_back": "◀ back",
    "navigate_home": "⌂ home",
    "keyboard_enter": "↵ enter",
    "wait": "⏳ wait",
}
_ARROW = {"up": (0.0, -1.0), "down": (0.0, 1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}
_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


# ---------------------------------------------------------------------------------------
# public API


def render_html(
    verdicts: Sequence[tuple[Trajectory, Verdict]],
    base_dir: Path | None = None,
    title: str | None = None,
) -> str:
    """One self-contained HTML document reporting each ``(trajectory, verdict)`` pair.

    Screenshot paths are resolved against ``base_dir`` (the trajectory file's folder) and
    then against the folder of ``trajectory.path`` when that is known; a screenshot that
    is not found or not an image is shown as a placeholder, never an error.
    """
    pairs = list(verdicts)
    if title is None:
        title = "tasklang report"
        if len(pairs) == 1:
            title += f": {pairs[0][1].task}"
    passed = sum(1 for _, v in pairs if v.success)
    parts = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n',
        '<meta name="referrer" content="no-referrer">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f"<title>{_esc(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n",
        f'<header class="page"><h1>{_esc(title)}</h1>',
        f'<p class="counts">{len(pairs)} trajector{"y" if len(pairs) == 1 else "ies"} · ',
        f'<span class="ok-text">{passed} succeeded</span> · ',
        f'<span class="fail-text">{len(pairs) - passed} failed</span></p>',
    ]
    if len(pairs) > 1:
        parts.append(_index(pairs))
    parts.append("</header>\n<main>\n")
    for i, (trajectory, verdict) in enumerate(pairs):
        parts.append(_Trajectory(i, trajectory, verdict, _dirs(trajectory, base_dir)).render())
    if not pairs:
        parts.append('<p class="empty">No trajectories.</p>')
    parts.append("</main>\n</body>\n</html>\n")
    return "".join(parts)


def image_info(data: bytes) -> tuple[str, int, int] | None:
    """The MIME type, width and height of a PNG, JPEG, GIF or WebP image; else None.

    >>> import struct
    >>> image_info(b"\\x89PNG\\r\\n\\x1a\\n" + struct.pack(">I4sII", 13, b"IHDR", 108, 240))
    ('image/png', 108, 240)
    >>> image_info(b"<svg>") is None
    True
    """
    info: tuple[str, int, int] | None = None
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        info = ("image/png", width, height)
    elif data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        info = ("image/gif", width, height)
    elif data[:3] == b"\xff\xd8\xff":
        info = _jpeg_info(data)
    elif data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        info = _webp_info(data)
    if info is None or info[1] <= 0 or info[2] <= 0:
        return None
    return info


# ---------------------------------------------------------------------------------------
# one trajectory


class _Trajectory:
    def __init__(self, number: int, traj: Trajectory, verdict: Verdict, dirs: list[Path]):
        self.n = number
        self.traj = traj
        self.verdict = verdict
        self.dirs = dirs
        self.step_ids = {step.index for step in traj.steps}
        # step index -> clause position -> the evidence of that clause pointing at the step
        self.links: dict[int, dict[int, list[Evidence]]] = {}
        for c, clause in enumerate(verdict.clauses):
            for ev in clause.evidence:
                if ev.step is not None:
                    self.links.setdefault(ev.step, {}).setdefault(c, []).append(ev)

    def anchor(self, what: str) -> str:
        return f"t{self.n}-{what}"

    def render(self) -> str:
        v, traj = self.verdict, self.traj
        badge = _badge(v.success)
        out = [
            f'<section class="traj {"ok" if v.success else "fail"}" id="{self.anchor("top")}">',
            f'<h2>{badge} <span class="task">{_esc(v.task)}</span></h2>',
        ]
        if traj.header.goal:
            out.append(f'<p class="goal">{_esc(traj.header.goal)}</p>')
        out.append(
            f'<nav class="jump"><a href="#{self.anchor("clauses")}">Clauses '
            f"({len(v.clauses)})</a> · "
            f'<a href="#{self.anchor("steps")}">Steps ({len(traj.steps)})</a></nav>'
        )
        out.append(self.summary())
        out.append(self.clause_table())
        out.append(self.steps())
        out.append("</section>\n")
        return "".join(out)

    # -- summary -------------------------------------------------------------------------

    def summary(self) -> str:
        v, traj = self.verdict, self.traj
        rows: list[tuple[str, str]] = []
        score = v.score if math.isfinite(v.score) else 0.0
        width = max(0.0, min(1.0, score)) * 100
        rows.append(
            (
                "Score",
                f'<span class="score">{_esc(_fmt(score, 3))}</span> '
                f'<span class="bar"><span style="width:{width:.1f}%"></span></span>',
            )
        )
        if traj.header.task.id != v.task:
            rows.append(("Trajectory task", f"<code>{_esc(traj.header.task.id)}</code>"))
        declared = traj.status
        status = _esc(declared) if declared is not None else '<span class="dim">none</span>'
        if v.expected_status is not None:
            cls = "ok-text" if declared == v.expected_status else "fail-text"
            status = f'<span class="{cls}">{status}</span> (expected {_esc(v.expected_status)})'
        rows.append(("Declared status", status))
        answer = traj.answer
        rows.append(
            (
                "Answer",
                f'<q class="answer">{_esc(answer)}</q>'
                if answer is not None
                else '<span class="dim">none</span>',
            )
        )
        if v.safety_violations:
            items = "".join(f"<li>{_esc(s)}</li>" for s in v.safety_violations)
            rows.append(("Safety violations", f'<ul class="violations">{items}</ul>'))
        else:
            rows.append(("Safety violations", '<span class="ok-text">none</span>'))
        if traj.final.error:
            rows.append(("Error", f'<span class="fail-text">{_esc(traj.final.error)}</span>'))
        if v.notes:
            rows.append(
                ("Notes", "<ul>" + "".join(f"<li>{_esc(s)}</li>" for s in v.notes) + "</ul>")
            )
        path = v.trajectory or traj.path
        if path:
            rows.append(("Trajectory", f"<code>{_esc(path)}</code>"))
        env = traj.header.environment
        env_bits = [env.kind] + [b for b in (env.name, env.model, env.serial) if b]
        if env.sdk is not None:
            env_bits.append(f"SDK {env.sdk}")
        if env.screen is not None:
            env_bits.append(f"{env.screen.width}×{env.screen.height}")
        rows.append(("Environment", _esc(" · ".join(str(b) for b in env_bits))))
        inst = traj.header.instance
        if inst.seed is not None or inst.params:
            text = (f"seed {inst.seed} " if inst.seed is not None else "") + (
                _json(inst.params) if inst.params else ""
            )
            rows.append(("Instance", f"<code>{_esc(text.strip())}</code>"))
        body = "".join(f"<dt>{_esc(k)}</dt><dd>{val}</dd>" for k, val in rows)
        return f'<dl class="summary">{body}</dl>'

    # -- clauses -------------------------------------------------------------------------

    def clause_table(self) -> str:
        clauses = self.verdict.clauses
        head = f'<h3 id="{self.anchor("clauses")}">Clauses</h3>'
        if not clauses:
            return head + '<p class="dim">No clauses.</p>'
        rows = []
        for c, clause in enumerate(clauses):
            rows.append(self.clause_row(c, clause))
        return (
            head + '<div class="wide"><table class="clauses"><thead><tr><th>Clause</th>'
            "<th>Role</th><th>Subgoal</th><th>Weight</th><th>Result</th><th>Summary</th>"
            "<th>Evidence</th><th>Source</th></tr></thead><tbody>"
            + "".join(rows)
            + "</tbody></table></div>"
        )

    def clause_row(self, c: int, clause: ClauseResult) -> str:
        cls = "pass" if clause.passed else "fail"
        result = (
            '<span class="pill pass">✓ pass</span>'
            if clause.passed
            else '<span class="pill fail">✗ fail</span>'
        )
        evidence = "".join(self.evidence_item(ev) for ev in clause.evidence)
        source = f"<code>{_esc(clause.span.label)}</code>" if clause.span else ""
        return (
            f'<tr class="{cls}" id="{self.anchor(f"c{c}")}">'
            f'<td><code class="cid">{_esc(clause.id)}</code>'
            f'<div class="dim small">{_esc(clause.kind)}</div></td>'
            f'<td><span class="role {_esc(clause.role)}">{_esc(clause.role)}</span></td>'
            f"<td>{_esc(clause.subgoal or '')}</td>"
            f'<td class="num">{_esc(_fmt(clause.weight, 3))}</td>'
            f"<td>{result}</td><td>{_esc(clause.summary)}</td>"
            f"<td>{f'<ul class=ev>{evidence}</ul>' if evidence else ''}</td>"
            f"<td>{source}</td></tr>"
        )

    def evidence_item(self, ev: Evidence) -> str:
        bits = [f'<span class="ev-kind">{_esc(ev.kind)}</span> {_esc(ev.detail)}']
        if ev.step is not None:
            bits.append(" " + self.step_link(ev.step))
        where = ".".join(x for x in (ev.app, ev.collection) if x)
        if where:
            bits.append(f' <code class="dim">{_esc(where)}</code>')
        for label, value in (("record", ev.record), ("node", ev.node)):
            if value is not None:
                bits.append(_json_block(label, value))
        return f"<li>{''.join(bits)}</li>"

    def step_link(self, step: int) -> str:
        if step in self.step_ids:
            return f'<a class="steplink" href="#{self.anchor(f"s{step}")}">step {step}</a>'
        return f'<span class="steplink absent">step {step} (not in trajectory)</span>'

    # -- steps ---------------------------------------------------------------------------

    def steps(self) -> str:
        head = f'<h3 id="{self.anchor("steps")}">Steps</h3>'
        if not self.traj.steps:
            return head + '<p class="dim">No steps recorded.</p>'
        cards = "".join(self.step(step) for step in self.traj.steps)
        return head + f'<div class="steps">{cards}</div>' + self.final()

    def final(self) -> str:
        final = self.traj.final
        bits = [f"status <b>{_esc(final.status or 'none')}</b>"]
        if final.answer is not None:
            bits.append(f'answer <q class="answer">{_esc(final.answer)}</q>')
        if final.error:
            bits.append(f'error <span class="fail-text">{_esc(final.error)}</span>')
        return f'<p class="final">Final record: {"; ".join(bits)}</p>'

    def step(self, step: Step) -> str:
        action = step.action
        elements, ui_note = _elements(step)
        target, inferred = _target(action, elements)
        links = self.links.get(step.index, {})
        clauses = self.verdict.clauses
        highlight = ""
        if links:
            highlight = " hl-fail" if any(not clauses[c].passed for c in links) else " hl-pass"
        kind = action.action_type if action else "no action"
        info = [
            f'<h4><a href="#{self.anchor(f"s{step.index}")}">Step {step.index}</a> '
            f'<span class="act">{_esc(kind)}</span></h4>',
            f'<p class="desc">{_esc(_describe(action, target, inferred))}</p>',
        ]
        if links:
            chips = []
            for c, evs in links.items():
                clause = clauses[c]
                mark = "✓" if clause.passed else "✗"
                details = "; ".join(ev.detail for ev in evs)
                chips.append(
                    f'<li><a class="chip {"pass" if clause.passed else "fail"}" '
                    f'href="#{self.anchor(f"c{c}")}">{mark} {_esc(clause.role)} · '
                    f"{_esc(clause.id)}</a> {_esc(details)}</li>"
                )
            info.append(f'<ul class="chips">{"".join(chips)}</ul>')
        if target is not None:
            info.append(_element_table(target, inferred))
        elif action is not None and action.index is not None:
            info.append(
                f'<p class="warn">element #{action.index} is not in this step\'s UI '
                f"({len(elements)} elements)</p>"
            )
        if step.thought:
            info.append(f'<blockquote class="thought">{_esc(step.thought)}</blockquote>')
        obs = step.observation
        meta = [f"<code>{_esc(x)}</code>" for x in (obs.package, obs.activity) if x]
        if obs.time:
            meta.append(_esc(obs.time))
        if meta:
            info.append(f'<p class="meta">{" · ".join(meta)}</p>')
        if ui_note:
            info.append(f'<p class="warn">{_esc(ui_note)}</p>')
        if action is not None:
            info.append(_json_block("action", action.model_dump(exclude_none=True)))
        media = self.media(step, elements, target)
        return (
            f'<article class="step{highlight}" id="{self.anchor(f"s{step.index}")}">'
            f'<div class="media">{media}</div><div class="info">{"".join(info)}</div></article>'
        )

    def media(self, step: Step, elements: list[UIElement], target: UIElement | None) -> str:
        ref = step.observation.screenshot
        screen = self.screen()
        if ref:
            image, problem = _load_image(ref, self.dirs)
            if image is not None:
                return _screenshot(image, step.action, target, screen, elements)
            placeholder = f'<div class="missing">{_esc(problem)}</div>'
        else:
            placeholder = ""
        wire = _wireframe(step.action, target, screen, elements)
        if wire:
            return placeholder + wire
        return placeholder or '<div class="missing">no screenshot or UI recorded</div>'

    def screen(self) -> tuple[int, int] | None:
        screen = self.traj.header.environment.screen
        if screen is not None and screen.width > 0 and screen.height > 0:
            return screen.width, screen.height
        return None


# ---------------------------------------------------------------------------------------
# drawing


@dataclass
class _Image:
    mime: str
    width: int
    height: int
    data: bytes


class _Canvas:
    """SVG shapes in a viewBox of ``width`` × ``height``; points given in screen coordinates."""

    def __init__(self, width: float, height: float, sx: float = 1.0, sy: float = 1.0):
        self.w, self.h, self.sx, self.sy = width, height, sx, sy
        self.fs = max(width, height * 0.5) * 0.045  # font size: ~13 CSS px at 300 px wide
        self.shapes: list[str] = []

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return x * self.sx, y * self.sy

    def svg(self, cls: str, label: str) -> str:
        return (
            f'<svg class="{cls}" viewBox="0 0 {_n(self.w)} {_n(self.h)}" '
            f'preserveAspectRatio="none" role="img" aria-label="{_esc(label)}">'
            + "".join(self.shapes)
            + "</svg>"
        )

    def rect(self, bounds: tuple[int, int, int, int], cls: str) -> None:
        left, top = self.pt(bounds[0], bounds[1])
        right, bottom = self.pt(bounds[2], bounds[3])
        x, y = min(left, right), min(top, bottom)
        w, h = abs(right - left), abs(bottom - top)
        self.shapes.append(
            f'<rect class="{cls}" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
            'vector-effect="non-scaling-stroke"/>'
        )

    def tap(self, x: float, y: float, kind: str) -> None:
        cx, cy = self.pt(x, y)
        r = self.fs * 0.9
        self.shapes.append(
            f'<circle class="tap" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" '
            'vector-effect="non-scaling-stroke"/>'
        )
        if kind == "double_tap":
            self.shapes.append(
                f'<circle class="tap-ring" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 1.6)}" '
                'vector-effect="non-scaling-stroke"/>'
            )
        elif kind == "long_press":
            self.shapes.append(
                f'<circle class="tap-ring dashed" cx="{_n(cx)}" cy="{_n(cy)}" '
                f'r="{_n(r * 1.8)}" vector-effect="non-scaling-stroke"/>'
            )
        self.shapes.append(
            f'<circle class="tap-dot" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.25)}"/>'
        )
        self.label(_TAPS[kind], cx, cy + r * 2.2 + self.fs, "act-label")

    def arrow(self, x: float, y: float, direction: str, span: tuple[float, float]) -> None:
        dx, dy = _ARROW[direction]
        cx, cy = self.pt(x, y)
        length = max(abs(dx) * span[0] * self.sx, abs(dy) * span[1] * self.sy) * 0.35
        length = max(length, self.fs * 3)
        x2, y2 = cx + dx * length, cy + dy * length
        head = self.fs * 0.9
        # arrowhead: tip at (x2, y2), base `head` back along the shaft
        bx, by = x2 - dx * head, y2 - dy * head
        px, py = -dy * head * 0.6, dx * head * 0.6
        self.shapes.append(
            f'<line class="swipe" x1="{_n(cx)}" y1="{_n(cy)}" x2="{_n(bx)}" y2="{_n(by)}" '
            'vector-effect="non-scaling-stroke"/>'
            f'<polygon class="swipe-head" points="{_n(x2)},{_n(y2)} {_n(bx + px)},{_n(by + py)} '
            f'{_n(bx - px)},{_n(by - py)}"/>'
            f'<circle class="tap-dot" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(self.fs * 0.3)}"/>'
        )

    def label(self, text: str, cx: float, baseline: float, cls: str) -> None:
        """A text box centred on ``cx``, kept inside the canvas; long text is cut."""
        pad = self.fs * 0.35
        char_w = self.fs * 0.6
        fit = max(4, int((self.w - 2 * pad - 2) / char_w))
        if len(text) > fit:
            text = text[: fit - 1] + "…"
        width = len(text) * char_w + 2 * pad
        x = min(max(cx - width / 2, 1.0), max(1.0, self.w - width - 1))
        baseline = min(max(baseline, self.fs + pad + 1), self.h - pad - 1)
        top = baseline - self.fs - pad * 0.2
        self.shapes.append(
            f'<g class="{cls}"><rect x="{_n(x)}" y="{_n(top)}" width="{_n(width)}" '
            f'height="{_n(self.fs + pad * 1.4)}" rx="{_n(pad)}"/>'
            f'<text x="{_n(x + pad)}" y="{_n(baseline - pad * 0.1)}" '
            f'font-size="{_n(self.fs)}">{_esc(text)}</text></g>'
        )

    def badge(self, text: str) -> None:
        self.label(text, self.w / 2, self.fs * 2.2, "badge-label")


def _draw_action(
    canvas: _Canvas,
    action: Action | None,
    target: UIElement | None,
    screen: tuple[float, float],
) -> None:
    if action is None:
        return
    kind = action.action_type
    if target is not None and target.bounds is not None:
        canvas.rect(target.bounds, "target")
    point = _point(action, target)
    if kind in _TAPS:
        if point is not None:
            canvas.tap(point[0], point[1], kind)
        else:
            canvas.badge(f"{_TAPS[kind]} (no position)")
    elif kind in ("scroll", "swipe"):
        direction = action.direction or "down"
        if target is not None and target.bounds is not None:
            left, top, right, bottom = target.bounds
            span: tuple[float, float] = (abs(right - left), abs(bottom - top))
        else:
            span = screen
        start = point or (screen[0] / 2, screen[1] / 2)
        canvas.arrow(start[0], start[1], direction, span)
        canvas.badge(f"{kind} {direction}")
    elif kind == "input_text":
        text = f"⌨ “{action.text or ''}”"
        if target is not None and target.bounds is not None:
            _, y = canvas.pt(0, target.bounds[3])
            cx, _ = canvas.pt((target.bounds[0] + target.bounds[2]) / 2, 0)
            canvas.label(text, cx, y + canvas.fs * 1.4, "type-label")
        else:
            canvas.label(text, canvas.w / 2, canvas.h / 2, "type-label")
    elif kind == "open_app":
        canvas.badge(f"open app: {action.app_name or '?'}")
    elif kind == "status":
        canvas.badge(f"status: {action.goal_status or '?'}")
    elif kind == "answer":
        canvas.badge(f"answer: {action.text or ''}")
    else:
        canvas.badge(_BADGES.get(kind, kind))


def _screenshot(
    image: _Image,
    action: Action | None,
    target: UIElement | None,
    screen: tuple[int, int] | None,
    elements: list[UIElement],
) -> str:
    """The screenshot with the action drawn over it, in the image's pixel coordinates."""
    size = screen or _ui_extent(elements, (image.width, image.height))
    sx, sy = (image.width / size[0], image.height / size[1]) if size else (1.0, 1.0)
    canvas = _Canvas(image.width, image.height, sx, sy)
    _draw_action(canvas, action, target, size or (image.width, image.height))
    uri = f"data:{image.mime};base64,{base64.b64encode(image.data).decode('ascii')}"
    desc = action.action_type if action else "no action"
    return (
        f'<div class="screen" style="aspect-ratio:{image.width}/{image.height}">'
        f'<img src="{uri}" width="{image.width}" height="{image.height}" alt="screenshot">'
        + canvas.svg("overlay", f"action: {desc}")
        + "</div>"
    )


def _wireframe(
    action: Action | None,
    target: UIElement | None,
    screen: tuple[int, int] | None,
    elements: list[UIElement],
) -> str:
    """A drawing of the UI element bounds with the action on it; "" without bounds."""
    boxed = [e for e in elements if e.bounds is not None]
    size = screen or _ui_extent(elements, None)
    if size is None or (not boxed and action is None):
        return ""
    canvas = _Canvas(size[0], size[1])
    canvas.shapes.append(f'<rect class="wire-bg" width="{size[0]}" height="{size[1]}"/>')
    for el in boxed:
        assert el.bounds is not None
        canvas.rect(el.bounds, "wire-el clickable" if el.clickable else "wire-el")
    fs = canvas.fs * 0.8
    for el in boxed:
        assert el.bounds is not None
        text = el.text or el.content_desc
        left, top, right, bottom = el.bounds
        if not text or bottom - top < fs or right - left < fs * 2:
            continue
        fit = max(1, int((right - left - fs * 0.4) / (fs * 0.58)))
        if len(text) > fit:
            text = text[: max(1, fit - 1)] + "…"
        size_px = min(fs, (bottom - top) * 0.8)
        canvas.shapes.append(
            f'<text class="wire-text" x="{_n(left + fs * 0.2)}" '
            f'y="{_n((top + bottom) / 2 + size_px * 0.35)}" font-size="{_n(size_px)}">'
            f"{_esc(text)}</text>"
        )
    _draw_action(canvas, action, target, (float(size[0]), float(size[1])))
    desc = action.action_type if action else "no action"
    return (
        f'<div class="screen wire" style="aspect-ratio:{size[0]}/{size[1]}">'
        + canvas.svg("overlay", f"UI wireframe, action: {desc}")
        + '</div><p class="dim small">'
        + ("wireframe of the UI element bounds" if boxed else "no UI recorded: a blank screen")
        + "</p>"
    )


# ---------------------------------------------------------------------------------------
# helpers


def _dirs(trajectory: Trajectory, base_dir: Path | None) -> list[Path]:
    dirs = []
    if base_dir is not None:
        dirs.append(Path(base_dir))
    if trajectory.path:
        folder = Path(trajectory.path).parent
        if folder not in dirs:
            dirs.append(folder)
    return dirs or [Path(".")]


def _load_image(ref: str, dirs: list[Path]) -> tuple[_Image | None, str]:
    """The screenshot's bytes and size, or None and a message saying why not."""
    try:
        path = Path(ref)
        candidates = [path] if path.is_absolute() else [d / path for d in dirs]
        found = next((p for p in candidates if p.is_file()), None)
    except (OSError, ValueError):
        found = None
    if found is None:
        return None, f"screenshot missing: {ref}"
    try:
        if found.stat().st_size > MAX_IMAGE_BYTES:
            return None, f"screenshot too large to embed: {ref}"
        data = found.read_bytes()
    except OSError as exc:
        return None, f"screenshot unreadable: {ref} ({exc.strerror or exc})"
    info = image_info(data)
    if info is None:
        return None, f"screenshot unreadable: {ref} (not a PNG, JPEG, GIF or WebP image)"
    return _Image(info[0], info[1], info[2], data), ""


def _elements(step: Step) -> tuple[list[UIElement], str]:
    obs = step.observation
    if obs.ui_elements is not None:
        return obs.ui_elements, ""
    if obs.ui_xml:
        try:
            return parse_ui_xml(obs.ui_xml)[1], ""
        except UiParseError as exc:
            return [], str(exc)
    return [], ""


def _target(action: Action | None, elements: list[UIElement]) -> tuple[UIElement | None, bool]:
    """The element acted on, and whether it was found by hit-testing the point."""
    if action is None:
        return None, False
    if action.index is not None:
        by_index = {e.index: e for e in elements}
        return by_index.get(action.index), False
    if action.action_type in _TAPS and _finite(action.x) and _finite(action.y):
        assert action.x is not None and action.y is not None
        hits = [e for e in elements if e.contains(action.x, action.y)]
        if hits:
            return min(hits, key=lambda e: (not e.clickable, _area(e))), True
    return None, False


def _point(action: Action, target: UIElement | None) -> tuple[float, float] | None:
    if _finite(action.x) and _finite(action.y):
        assert action.x is not None and action.y is not None
        return action.x, action.y
    if target is not None and action.index is not None:
        return target.center
    return None


def _describe(action: Action | None, target: UIElement | None, inferred: bool) -> str:
    if action is None:
        return "No action recorded."
    kind = action.action_type
    on = f" element #{action.index}" if action.index is not None else ""
    at = (
        f" at ({_fmt(action.x)}, {_fmt(action.y)})"
        if _finite(action.x) and _finite(action.y)
        else ""
    )
    if kind in _TAPS:
        text = f"{_TAPS[kind].capitalize()}{on}{at}"
    elif kind == "input_text":
        text = f"Type “{action.text or ''}”" + (f" into{on}" if on else "")
        if action.clear_text:
            text += " (clearing the field first)"
    elif kind in ("scroll", "swipe"):
        text = f"{kind.capitalize()} {action.direction or '(no direction)'}" + (
            f" on{on}" if on else ""
        )
    elif kind == "open_app":
        text = f"Open app {action.app_name or '(no name)'}"
    elif kind == "status":
        text = f"Declare status: {action.goal_status or '(none)'}"
    elif kind == "answer":
        text = f"Answer: “{action.text or ''}”"
    else:
        text = {
            "navigate_back": "Navigate back",
            "navigate_home": "Go to the home screen",
            "keyboard_enter": "Press Enter",
            "wait": "Wait",
        }.get(kind, kind)
    if inferred and target is not None:
        text += f" (hit element #{target.index})"
    return text + "."


def _element_table(el: UIElement, inferred: bool) -> str:
    flags = [
        name
        for name in ("clickable", "checkable", "checked", "selected", "focused", "scrollable")
        if getattr(el, name)
    ]
    if not el.enabled:
        flags.append("disabled")
    rows = [
        ("class", el.class_name),
        ("resource-id", el.resource_id),
        ("text", el.text),
        ("content-desc", el.content_desc),
        ("bounds", _bounds(el.bounds)),
        ("state", " ".join(flags)),
    ]
    body = "".join(
        f"<tr><th>{_esc(k)}</th><td>{_esc(val) if val else '<span class=dim>—</span>'}</td></tr>"
        for k, val in rows
    )
    caption = f"element #{el.index}" + (" (under the tap point)" if inferred else " (acted on)")
    return f'<table class="element"><caption>{_esc(caption)}</caption>{body}</table>'


def _ui_extent(elements: list[UIElement], image: tuple[int, int] | None) -> tuple[int, int] | None:
    """The screen size implied by the UI bounds (if it fits the image's aspect ratio)."""
    boxes = [e.bounds for e in elements if e.bounds is not None]
    if not boxes:
        return None
    width, height = max(b[2] for b in boxes), max(b[3] for b in boxes)
    if width <= 0 or height <= 0:
        return None
    if image is not None and abs(width / height - image[0] / image[1]) > 0.05 * image[0] / image[1]:
        return None  # the UI does not cover the screen: assume screenshot coordinates
    return width, height


def _index(pairs: Iterable[tuple[Trajectory, Verdict]]) -> str:
    rows = []
    for i, (traj, v) in enumerate(pairs):
        rows.append(
            f'<tr><td><a href="#t{i}-top">{_esc(v.task)}</a></td><td>{_badge(v.success)}</td>'
            f'<td class="num">{_esc(_fmt(v.score, 3))}</td><td class="num">{len(traj.steps)}</td>'
            f"<td><code>{_esc(v.trajectory or traj.path or '')}</code></td></tr>"
        )
    return (
        '<div class="wide"><table class="index"><thead><tr><th>Task</th><th>Result</th>'
        "<th>Score</th><th>Steps</th><th>Trajectory</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></div>"
    )


def _badge(success: bool) -> str:
    if success:
        return '<span class="badge ok">SUCCESS</span>'
    return '<span class="badge fail">FAILURE</span>'


def _json_block(label: str, value: Any) -> str:
    text = _json(value)
    if len(text) <= 100:
        return f' <code class="json">{_esc(label)} {_esc(text)}</code>'
    pretty = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True, default=str)
    return (
        f'<details class="json"><summary>{_esc(label)} {_esc(text[:60])}…</summary>'
        f"<pre>{_esc(pretty)}</pre></details>"
    )


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _esc(value: object) -> str:
    return html.escape(str(value).replace("\x00", "\ufffd"), quote=True)


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def _area(el: UIElement) -> int:
    if el.bounds is None:
        return 0
    left, top, right, bottom = el.bounds
    return abs(right - left) * abs(bottom - top)


def _bounds(bounds: tuple[int, int, int, int] | None) -> str:
    return "" if bounds is None else "[{},{}][{},{}]".format(*bounds)


def _fmt(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "?"
    return _n(value, digits)


def _n(value: float, digits: int = 2) -> str:
    """A number for an attribute: no exponent, trailing zeros dropped."""
    if not math.isfinite(value):
        return "0"
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _jpeg_info(data: bytes) -> tuple[str, int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return "image/jpeg", width, height
        if length < 2:
            return None
        i += 2 + length
    return None


def _webp_info(data: bytes) -> tuple[str, int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
    elif chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        width, height = width & 0x3FFF, height & 0x3FFF
    elif chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        width, height = (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    else:
        return None
    return "image/webp", width, height


_CSS = """
:root{--ok:#137333;--ok-bg:#e6f4ea;--fail:#b3261e;--fail-bg:#fce8e6;--ink:#1f2328;
--dim:#656d76;--line:#d0d7de;--panel:#f6f8fa;--accent:#0b57d0}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:var(--ink);background:#fff}
header.page{padding:16px 24px;border-bottom:1px solid var(--line);background:var(--panel)}
h1{margin:0 0 4px;font-size:22px}
main{padding:8px 24px 40px}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{white-space:pre-wrap;word-break:break-word;margin:4px 0;background:var(--panel);
padding:6px;border-radius:4px}
a{color:var(--accent)}
.counts{margin:0;color:var(--dim)}
.ok-text{color:var(--ok);font-weight:600}.fail-text{color:var(--fail);font-weight:600}
.dim{color:var(--dim)}.small{font-size:11px}.warn{color:#9a6700;margin:4px 0}
.traj{margin:20px 0 32px;padding:0 0 8px;border-top:4px solid var(--line)}
.traj.ok{border-top-color:var(--ok)}.traj.fail{border-top-color:var(--fail)}
.traj h2{margin:12px 0 4px;font-size:20px;display:flex;gap:10px;align-items:center;
flex-wrap:wrap}
.traj .task{font-family:ui-monospace,Menlo,Consolas,monospace}
.goal{margin:2px 0 6px;font-size:15px}
.jump{font-size:13px;margin-bottom:8px}
.badge{display:inline-block;padding:2px 10px;border-radius:12px;font-size:13px;
font-weight:700;letter-spacing:.04em}
.badge.ok{background:var(--ok-bg);color:var(--ok);border:1px solid var(--ok)}
.badge.fail{background:var(--fail-bg);color:var(--fail);border:1px solid var(--fail)}
dl.summary{display:grid;grid-template-columns:max-content 1fr;gap:3px 16px;margin:8px 0 16px;
padding:10px 14px;background:var(--panel);border-radius:6px}
dl.summary dt{color:var(--dim);font-weight:600}dl.summary dd{margin:0;min-width:0;
overflow-wrap:anywhere}
dl.summary ul{margin:0;padding-left:18px}
.violations li{color:var(--fail);font-weight:600}
.score{font-weight:700}
.bar{display:inline-block;width:120px;height:8px;background:var(--fail-bg);border-radius:4px;
vertical-align:middle;overflow:hidden}.bar span{display:block;height:100%;background:var(--ok)}
q.answer{font-style:italic}
h3{margin:18px 0 8px;font-size:16px}
table{border-collapse:collapse}
.wide{overflow-x:auto;max-width:100%}
table.clauses,table.index{width:100%;font-size:13px}
table.clauses th,table.clauses td,table.index th,table.index td{border:1px solid var(--line);
padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}
table.clauses th{white-space:nowrap}
table.clauses td:nth-child(n+2):nth-child(-n+5){white-space:nowrap}
table.clauses td:nth-child(7){min-width:40%}
table.clauses thead th,table.index thead th{background:var(--panel)}
table.index{margin-top:10px;background:#fff}
tr.fail>td:first-child{box-shadow:inset 4px 0 var(--fail)}
tr.pass>td:first-child{box-shadow:inset 4px 0 var(--ok)}
tr:target{background:#fff8c5}
td.num{text-align:right;white-space:nowrap}
.pill{white-space:nowrap;font-weight:700;font-size:12px;padding:1px 6px;border-radius:8px}
.pill.pass{color:var(--ok);background:var(--ok-bg)}.pill.fail{color:var(--fail);
background:var(--fail-bg)}
.role{font-size:12px;padding:0 5px;border-radius:6px;background:#eef;color:#334}
.role.safety{background:#fff1e5;color:#8a4600}.role.guard{background:#f0eefc;color:#4b3a99}
ul.ev{margin:0;padding-left:16px}ul.ev li{margin:2px 0}
.ev-kind{font-size:11px;text-transform:uppercase;color:var(--dim);font-weight:700}
.steplink{white-space:nowrap;font-weight:600}.steplink.absent{color:var(--fail)}
code.json{display:inline-block;background:var(--panel);padding:0 4px;border-radius:3px;
overflow-wrap:anywhere}
details.json summary{cursor:pointer;font:12px ui-monospace,Menlo,Consolas,monospace}
.steps{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:14px}
.step{display:flex;gap:14px;border:1px solid var(--line);border-radius:8px;padding:10px;
background:#fff;min-width:0}
.step.hl-fail{border-color:var(--fail);box-shadow:inset 4px 0 var(--fail)}
.step.hl-pass{border-color:var(--ok);box-shadow:inset 4px 0 var(--ok)}
.step:target{outline:3px solid #d4a72c}
.media{flex:0 0 260px;width:260px}
.info{flex:1;min-width:0}
.info h4{margin:0 0 4px;font-size:15px}
.act{font:12px ui-monospace,Menlo,Consolas,monospace;background:#eef2ff;color:#1e3a8a;
padding:1px 6px;border-radius:6px;margin-left:4px}
.desc{margin:2px 0 6px;overflow-wrap:anywhere}
.screen{position:relative;width:260px;border:1px solid #888;border-radius:6px;
overflow:hidden;background:#000}
.screen img{display:block;width:100%;height:100%}
.screen svg{position:absolute;left:0;top:0;width:100%;height:100%}
.screen.wire{background:#fff}
.missing{display:flex;align-items:center;justify-content:center;text-align:center;
min-height:90px;padding:10px;margin-bottom:6px;border:2px dashed var(--fail);border-radius:6px;
color:var(--fail);background:var(--fail-bg);font-weight:600;overflow-wrap:anywhere}
.overlay .tap{fill:rgba(230,0,60,.30);stroke:#e6003c;stroke-width:2.5px}
.overlay .tap-ring{fill:none;stroke:#e6003c;stroke-width:2px}
.overlay .tap-ring.dashed{stroke-dasharray:4 3}
.overlay .tap-dot{fill:#e6003c;stroke:#fff;stroke-width:.5px}
.overlay .target{fill:rgba(255,170,0,.12);stroke:#ff9800;stroke-width:2px;
stroke-dasharray:5 3}
.overlay .swipe{stroke:#e6003c;stroke-width:3.5px;stroke-linecap:round}
.overlay .swipe-head{fill:#e6003c}
.overlay text{font-family:system-ui,sans-serif;font-weight:700;white-space:pre}
.overlay .act-label rect{fill:rgba(230,0,60,.9)}.overlay .act-label text{fill:#fff}
.overlay .badge-label rect{fill:rgba(11,87,208,.92)}.overlay .badge-label text{fill:#fff}
.overlay .type-label rect{fill:rgba(255,236,179,.96);stroke:#b26a00;stroke-width:1px}
.overlay .type-label text{fill:#3d2600}
.overlay .wire-bg{fill:#fbfcfd}
.overlay .wire-el{fill:none;stroke:#a8b3bf;stroke-width:1px}
.overlay .wire-el.clickable{stroke:#5a7fb8;fill:rgba(90,127,184,.05)}
.overlay .wire-text{fill:#39424e;font-weight:400}
table.element{font-size:12px;margin:6px 0;width:100%;table-layout:fixed}
table.element caption{text-align:left;font-weight:600;color:var(--dim);font-size:12px}
table.element th{width:92px;text-align:left;color:var(--dim);font-weight:500;padding:1px 6px 1px 0;
vertical-align:top}
table.element td{padding:1px 0;overflow-wrap:anywhere;font-family:ui-monospace,Menlo,monospace}
blockquote.thought{margin:6px 0;padding:6px 10px;border-left:3px solid #8c959f;
background:var(--panel);white-space:pre-wrap;overflow-wrap:anywhere;font-style:italic}
ul.chips{list-style:none;margin:4px 0;padding:0}ul.chips li{margin:2px 0;overflow-wrap:anywhere}
.chip{display:inline-block;font-size:12px;font-weight:700;padding:1px 8px;border-radius:10px;
text-decoration:none}
.chip.pass{background:var(--ok-bg);color:var(--ok);border:1px solid var(--ok)}
.chip.fail{background:var(--fail-bg);color:var(--fail);border:1px solid var(--fail)}
.meta{margin:4px 0;color:var(--dim);font-size:12px;overflow-wrap:anywhere}
.final{margin:12px 0;color:var(--dim)}
@media (max-width:700px){.steps{grid-template-columns:1fr}.step{flex-direction:column}
main{padding:8px 10px 40px}}
"""
