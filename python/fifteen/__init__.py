"""fifteen: provably shortest solutions to sliding puzzles, the Rust core called in-process.

Every function takes what the `fifteen` command line takes, as keywords, and reads it with the
command line's own parser: bad input raises `ValueError` with the one line the binary prints,
and a position without solution raises `NoSolution` (a `ValueError`) from the planner, or gives
a `Solved` whose `solvable` is False from `solve`; a search stopped before its end (a limit, a
`stop` that said so) raises `Stopped` (a `RuntimeError`). The searches run without the GIL, on
`threads` threads of their own, and the pattern databases are read once per process and shared
by every thread and call.
"""

from ._core import NoSolution, Stopped, __version__
from .crosscheck import Crosschecked, crosscheck
from .solve import Bound, Solved, solve, solve_many
from .shard import shard_check, shard_merge, shard_plan, shard_run

__all__ = [
    "Bound",
    "Crosschecked",
    "NoSolution",
    "Solved",
    "Stopped",
    "__version__",
    "crosscheck",
    "shard_check",
    "shard_merge",
    "shard_plan",
    "shard_run",
    "solve",
    "solve_many",
]
