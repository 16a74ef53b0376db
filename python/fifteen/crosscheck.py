"""`fifteen.crosscheck`: `fifteen crosscheck` in this process, its summary as Python objects.

Invariant: the counts and lines are those the binary prints for the same options (its
closing line `N positions, M engine runs, D disagreements`, and a line before it for each
position where something disagreed); nothing of them is computed here."""

from dataclasses import dataclass
from typing import List

from . import _core
from .flags import flags


@dataclass(frozen=True)
class Crosschecked:
    """What a cross-check found: the positions solved, the engine runs that answered, the
    positions where something disagreed, the runs skipped (the BFS engine past its memory),
    and the lines `fifteen crosscheck` prints. `agreed` when nothing disagreed (the binary's
    exit status 0)."""

    positions: int
    runs: int
    disagreements: int
    skipped: int
    lines: List[str]

    @property
    def agreed(self):
        return self.disagreements == 0


def crosscheck(
    count=None,
    seed=None,
    size=None,
    *,
    walk=None,
    engines=None,
    memory=None,
    heuristic=None,
    tables=None,
    prune=None,
    threads=None,
    goal=None,
    metric=None,
):
    """Seeded positions, each solved by every engine of `engines` (a list or a comma-separated
    string; default: all) and every answer checked, with the options of `fifteen crosscheck`.
    A disagreement raises nothing: the `Crosschecked` counts it and holds its line."""
    if engines is not None and not isinstance(engines, str):
        engines = ",".join(engines)
    words = flags(
        count=count,
        seed=seed,
        size=size,
        walk=walk,
        engines=engines,
        memory=memory,
        heuristic=heuristic,
        tables=tables,
        prune=prune,
        threads=threads,
        goal=goal,
        metric=metric,
    )
    lines, (positions, runs, disagreements, skipped) = _core.crosscheck(words)
    return Crosschecked(positions, runs, disagreements, skipped, lines)
