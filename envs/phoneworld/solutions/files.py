"""Reference solutions of the Files (DocumentsUI) tasks."""

from __future__ import annotations

import re

from tasklang.envs.phoneworld.solutions.base import Driver, reference

UNITS = {"B": 1, "kB": 1000, "MB": 1000**2, "GB": 1000**3, "TB": 1000**4}
SIZE = re.compile(r"^([\d.,]+)\s*(B|kB|MB|GB|TB)$")


def parse_size(text: str) -> float | None:
    """Bytes from a size as the list shows it ("2.48 MB"), or None."""
    m = SIZE.match(text.strip())
    if m is None:
        return None
    return float(m.group(1).replace(",", "")) * UNITS[m.group(2)]


def visible_rows(d: Driver) -> dict[str, str]:
    """Name -> size text of the document rows on the screen."""
    rows: dict[str, str] = {}
    for v in d.observe().walk():
        if not v.rid.endswith(":id/item_root"):
            continue
        name = size = ""
        for c in v.walk():
            if c.rid == "android:id/title":
                name = c.text
            elif c.rid.endswith(":id/size"):
                size = c.text
        if name and size:
            rows[name] = size
    return rows


def read_listing(d: Driver, limit: int = 8) -> dict[str, str]:
    """Every document row of the current folder, scrolling down until nothing new shows."""
    seen = visible_rows(d)
    for _ in range(limit):
        lists = [v for v in d.observe().walk() if v.rid.endswith(":id/dir_list")]
        if not any(v.scrollable for v in lists):
            break
        d.scroll("down")
        new = visible_rows(d)
        if set(new) <= set(seen):
            break
        seen.update(new)
    return seen


@reference("files.large_pdfs")
def large_pdfs(d: Driver) -> None:
    d.tap(text="Download", rid="title")
    rows = read_listing(d)
    big = [
        name
        for name, size in rows.items()
        if name.lower().endswith(".pdf") and (parse_size(size) or 0) > 1000**2
    ]
    outcome = d.act({"action_type": "answer", "text": ", ".join(big)})
    if not getattr(outcome, "ended", False):
        d.done()  # the task requires the `status` action too
