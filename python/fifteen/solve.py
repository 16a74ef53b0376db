"""`fifteen.solve`: one position solved in this process, as `fifteen solve --json` reports it,
and `solve_many` for several positions, which read the tables once between them.

Invariant: a `Solved` holds what `fifteen solve --json` reports for the same options (kept
whole in its `report`); nothing of it is computed here."""

import json
from dataclasses import dataclass, field
from typing import List, Optional

from . import _core
from .flags import flags, position_words


@dataclass(frozen=True)
class Bound:
    """One bound of the search: its moves (`length`; in the single-tile metric H+S, KORF0's
    happy and sad moves, None in the multi-tile metric), its nodes, seconds, whether it was
    searched to the end, and the solutions found in it."""

    length: int
    happy: Optional[int]
    sad: Optional[int]
    nodes: Optional[int]
    seconds: float
    completed: bool
    solutions: int

    @staticmethod
    def of(report):
        """The bound of one object of the `bounds` of `fifteen solve --json`."""
        happy, sad = report.get("happy"), report.get("sad")
        length = report["bound"] if "bound" in report else happy + sad
        return Bound(
            length=length,
            happy=happy,
            sad=sad,
            nodes=report.get("nodes"),
            seconds=report["seconds"],
            completed=report["completed"],
            solutions=report["solutions"],
        )


@dataclass(frozen=True)
class Solved:
    """A position's answer: for a solvable position the first optimal solution (`moves` in the
    chosen notation, `length` moves, `happy` + `sad` in KORF0's terms), the nodes and seconds
    of the whole search and of each bound; with `all`, every optimal solution. The JSON object
    of `fifteen solve --json` is kept whole in `report`."""

    position: str
    solvable: bool
    length: Optional[int] = None
    happy: Optional[int] = None
    sad: Optional[int] = None
    moves: Optional[str] = None
    blank_moves: Optional[str] = None
    nodes: Optional[int] = None
    seconds: Optional[float] = None
    heuristic: Optional[str] = None
    bounds: List[Bound] = field(default_factory=list)
    solutions: Optional[List[str]] = None
    report: dict = field(default_factory=dict, repr=False)

    @staticmethod
    def of(report):
        """The answer of the JSON object `report` of `fifteen solve --json`."""
        bounds = [Bound.of(b) for b in report.get("bounds", [])]
        keys = ("length", "happy", "sad", "moves", "blank_moves", "nodes", "seconds")
        return Solved(
            position=report["position"],
            solvable=report["solvable"],
            heuristic=report.get("heuristic"),
            bounds=bounds,
            solutions=report.get("solutions"),
            report=report,
            **{key: report.get(key) for key in keys},
        )


def solve(
    position,
    size=None,
    heuristic=None,
    threads=None,
    metric="stm",
    *,
    engine=None,
    convention=None,
    tables=None,
    prune=None,
    all=False,
    goal=None,
    order=None,
    memory=None,
    time_limit=None,
    max_nodes=None,
    live=False,
):
    """The optimal solution of `position` (a string as the command line takes it, or a
    sequence of tiles, 0 the blank) as a `Solved`, with the options of `fifteen solve`. The
    search runs without the GIL; with `live` the bound lines go to stderr as they finish, and
    the progress line too on a terminal. A search that reaches `time_limit` (seconds, or a
    duration such as "10m") or `max_nodes` raises `Stopped` with the binary's line."""
    words = ["solve", *position_words(position)]
    words += flags(
        size=size,
        heuristic=heuristic,
        threads=threads,
        metric=metric,
        engine=engine,
        convention=convention,
        tables=tables,
        prune=prune,
        all=all,
        goal=goal,
        order=order,
        memory=memory,
        time_limit=time_limit,
        max_nodes=max_nodes,
    )
    return Solved.of(json.loads(_core.solve(words, live)))


def solve_many(positions, **options):
    """`solve` of each of `positions` in turn with the same `options`, a list of `Solved` in
    their order; the tables are read once for all of them (and for the process)."""
    return [solve(position, **options) for position in positions]
