"""`fifteen shard` in this process: a bound cut into items (plan), items searched (run), and
their results merged into the bound's lines, as `fifteen solve --threads 1` finds it (merge).

Invariant: plans and results are the JSON that `fifteen shard` writes to its files (the same
text but its final line end), so either side may be the binary or this package."""

from . import _core
from .flags import flags, position_words


def shard_plan(
    position,
    bound=None,
    items=None,
    *,
    size=None,
    convention=None,
    metric=None,
    goal=None,
    engine=None,
    heuristic=None,
    tables=None,
    prune=None,
    split=None,
    all=False,
    order=None,
):
    """The plan of one bound of `position` (the first without `bound`, else as `solve`
    prints it: H+S, in MTM N) cut into at least `items` subtrees, as JSON text (`split`: the path of a JSON
    list of places to cut deeper, as `fifteen shard plan --split`; `order`: "walk" or
    "best-first", as `--order`). Raises `NoSolution` for a position that cannot reach the
    goal."""
    words = position_words(position)
    words += flags(
        size=size,
        convention=convention,
        metric=metric,
        goal=goal,
        engine=engine,
        heuristic=heuristic,
        tables=tables,
        prune=prune,
        bound=bound,
        items=items,
        split=split,
        all=all,
        order=order,
    )
    return _core.shard_plan(words)


def shard_run(plan, items, tables=None, stop=None):
    """The results (JSON texts) of the items `items` of `plan` (JSON text), searched in this
    order with the tables of `tables` (default: $FIFTEEN_TABLES, else the cache); none after
    an item that holds a solution, unless the plan lists every solution. `stop`, a callable
    without arguments, is asked every 0.2 s while the search runs (without the GIL): once it
    returns true the search ends within a few million nodes and `Stopped` is raised."""
    tables = None if tables is None else str(tables)
    return _core.shard_run(plan, [int(i) for i in items], tables, stop)


def shard_check(plan, tables=None):
    """Raises `ValueError` unless this process can search `plan`: the same version of
    fifteen, and tables of the plan's checksums (which it reads, once for the process)."""
    _core.shard_check(plan, None if tables is None else str(tables))


def shard_merge(plan, results):
    """The lines `fifteen shard merge` prints for `plan` and its `results` (JSON texts): the
    solution or ` ... no solution with H+S moves`, the nodes, and the next bound."""
    return _core.shard_merge(plan, list(results))
