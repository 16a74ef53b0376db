"""What a Dask worker runs: items of a plan searched in the worker's own process, and the
check that the worker can search a plan at all.

Invariant: the scheduler, which unpickles the tasks, and a worker without this package can
unpickle what the driver sends, with nothing but `distributed`: the driver sends these
functions through `by_value`, and registers this module with cloudpickle to be pickled by
value, so no pickle names the package; `fifteen` is imported only inside the functions, on the
worker. A worker's tables are read once per process and shared by its threads (the package
keeps them)."""


def worker_name():
    """The address of the worker running this, as the scheduler knows it."""
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        import socket

        return socket.gethostname()


def check(plan, tables, version):
    """None if this worker can search `plan` (JSON) with the tables of `tables`: the package
    `fifteen` of `version`, the plan's tables; else the one line that says why not."""
    try:
        import fifteen
    except ImportError:
        return (
            f"has no Python package fifteen: install fifteen {version} on every worker "
            "(pip install ./python, or its wheel)"
        )
    if fifteen.__version__ != version:
        return (
            f"has fifteen {fifteen.__version__}, the driver fifteen {version}: install the "
            "driver's on every worker"
        )
    try:
        fifteen.shard_check(plan, tables)
    except ValueError as error:
        return str(error)
    return None


def unwanted():
    """For the task running this, a callable that says whether its result is no longer
    wanted: the task cancelled or released (the driver cancelled it once the bound was
    settled, or went away: the scheduler then releases its tasks) or its worker closing (on
    SIGTERM, a closing worker waits for its running tasks); None outside a worker. Called by
    the search (shard_run's stop) every 0.2 s, in the task's thread."""
    try:
        from distributed import get_worker

        worker = get_worker()
        key = worker.get_current_task()
    except (ImportError, ValueError, AttributeError):
        return None

    def ask():
        if worker.status.name in ("closing", "closed", "failed", "stopping", "stopped"):
            return True
        task = worker.state.tasks.get(key)
        return task is None or task.state not in ("executing", "long-running", "resumed")

    return ask


def run_items(plan, items, tables):
    """Searches the items `items` of `plan` (JSON) in one call, which searches nothing after
    an item with a solution; returns each item's result text by item. A refusal (another
    version, other tables) is an error naming the worker and the one-line message. The search
    stops within seconds once the task is unwanted (see `unwanted`): a task cancelled by the
    driver, or left by one that exited, no longer holds its worker's thread, and a worker told
    to close does; it then asks the scheduler to run the task elsewhere (for a cancelled task
    nobody asks)."""
    import json

    import fifteen

    try:
        texts = fifteen.shard_run(plan, items, tables, stop=unwanted())
    except fifteen.Stopped:
        from distributed import Reschedule

        raise Reschedule() from None
    except ValueError as error:
        raise RuntimeError(f"worker {worker_name()}: {error}") from None
    return {json.loads(text)["item"]: text for text in texts}


def by_value(function):
    """`function` as one that plain pickle cannot name (a local function), so that Dask falls
    back to cloudpickle for the graph that holds it, which pickles it by value, and `function`
    with it since this module is registered (Dask tries plain pickle first, which would name
    the function by its module)."""

    def call(*args):
        return function(*args)

    call.__name__ = call.__qualname__ = function.__name__
    return call
