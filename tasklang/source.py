"""Source files and spans: where every node and diagnostic comes from."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict


class Span(BaseModel):
    """A region of a source file: 1-based lines and columns, 0-based offsets, end exclusive.

    >>> Span(file="a.task", line=2, column=3, end_line=2, end_column=7, start=10, end=14).label
    'a.task:2:3'
    """

    model_config = ConfigDict(frozen=True)

    file: str = "<input>"
    line: int = 1
    column: int = 1
    end_line: int = 1
    end_column: int = 1
    start: int = 0
    end: int = 0

    @property
    def label(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def cover(self, other: Span | None) -> Span:
        """The smallest span that holds both spans (same file)."""
        if other is None:
            return self
        first, last = (self, other) if self.start <= other.start else (other, self)
        end = last if last.end >= first.end else first
        return Span(
            file=self.file,
            line=first.line,
            column=first.column,
            end_line=end.end_line,
            end_column=end.end_column,
            start=first.start,
            end=end.end,
        )


@dataclass
class SourceFile:
    """The text of one file and a line index for offset -> (line, column)."""

    path: str
    text: str
    _line_starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        starts = [0]
        for i, ch in enumerate(self.text):
            if ch == "\n":
                starts.append(i + 1)
        self._line_starts = starts

    @classmethod
    def read(cls, path: Path, display: str | None = None) -> SourceFile:
        """Read a file as UTF-8 (raises OSError or UnicodeDecodeError)."""
        data = path.read_bytes()
        return cls(display or str(path), data.decode("utf-8"))

    @property
    def line_count(self) -> int:
        return len(self._line_starts)

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        index = bisect.bisect_right(self._line_starts, offset) - 1
        return index + 1, offset - self._line_starts[index] + 1

    def line_text(self, line: int) -> str:
        if line < 1 or line > len(self._line_starts):
            return ""
        start = self._line_starts[line - 1]
        end = self._line_starts[line] - 1 if line < len(self._line_starts) else len(self.text)
        return self.text[start:end].rstrip("\r")

    def span(self, start: int, end: int) -> Span:
        """A span from two character offsets."""
        line, column = self.position(start)
        end_line, end_column = self.position(max(start, end))
        return Span(
            file=self.path,
            line=line,
            column=column,
            end_line=end_line,
            end_column=end_column,
            start=start,
            end=max(start, end),
        )

    def whole(self) -> Span:
        return self.span(0, len(self.text))
