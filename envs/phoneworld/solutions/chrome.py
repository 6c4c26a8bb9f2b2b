"""Reference solutions of the Chrome tasks."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.widgets import View

STEPS = {"down": (1, 0), "right": (0, 1), "up": (-1, 0), "left": (0, -1)}  # goal-ward first
OPPOSITE = {"down": "up", "up": "down", "left": "right", "right": "left"}


def maze_grid(d: Driver) -> list[list[View]]:
    """The maze's cells as the page shows them: the rows of the element with id "maze"."""
    maze = next((v for v in d.observe().walk() if v.rid == "maze"), None)
    if maze is None:
        raise SolutionError("the page shows no maze")
    return [row.children for row in maze.children]


def maze_position(d: Driver) -> tuple[int, int]:
    """Where the X is: (row, column)."""
    for r, row in enumerate(maze_grid(d)):
        for c, cell in enumerate(row):
            if cell.text == "X":
                return r, c
    raise SolutionError("the maze shows no X")


def solve_maze(d: Driver) -> None:
    """Walk the maze depth first, trying the moves toward the bottom-right corner first: a
    press that leaves the X where it was met a wall (walls show only as colour)."""
    grid = maze_grid(d)
    rows, cols = len(grid), len(grid[0]) if grid else 0
    pos = maze_position(d)
    seen = {pos}
    walls: set[tuple[tuple[int, int], str]] = set()
    trail: list[str] = []
    while not d.has(text="Success!"):
        options = [
            m
            for m, (dr, dc) in STEPS.items()
            if 0 <= pos[0] + dr < rows
            and 0 <= pos[1] + dc < cols
            and (pos, m) not in walls
            and (pos[0] + dr, pos[1] + dc) not in seen
        ]
        if options:
            move = options[0]
            d.tap(text=move.capitalize(), cls="Button")
            if d.has(text="Success!"):
                return
            new = maze_position(d)
            if new == pos:
                walls.add((pos, move))
                continue
            seen.add(new)
            trail.append(move)
            pos = new
            continue
        if not trail:
            raise SolutionError("the maze has no way to its goal")
        d.tap(text=OPPOSITE[trail.pop()].capitalize(), cls="Button")
        pos = maze_position(d)


@reference("androidworld.browser_maze")
def browser_maze(d: Driver) -> None:
    d.open("Files")
    d.tap(text="Download", rid="title")
    d.long_press(text="task.html", rid="title")
    d.tap(desc="Share")
    d.tap(text="Chrome")
    solve_maze(d)
    d.done()
