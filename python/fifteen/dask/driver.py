"""`python -m fifteen.dask solve POSITION` (or `fifteen-dask solve ...`): fifteen's search on a
Dask cluster, bound after bound, with the answer of one thread.

Each bound is cut on this machine (`fifteen.shard_plan`), deeper below the subtrees that the
bound before found large; its items go to the workers as tasks in list order, each a batch of
consecutive items of about equal size by the bound before, searched in the worker's process
(task.py). Once the results settle the bound (every item before the first solution done, or
all of them), the tasks still pending are cancelled and `fifteen.shard_merge` gives the
bound's line, printed as `fifteen solve --threads 1` prints it. Before a bound's tasks go out,
every worker is asked whether it can search the plan (the package, its version, the tables):
one that cannot ends the search with one line naming it. With `--journal DIR` every plan and
result is kept in DIR, so a driver started again on it takes the finished items from there
instead of running them again. The bound's progress (tasks done and to do, nodes) is a line
on stderr when stderr is a terminal, and a summary line a bound in any case.

Invariant: stdout gets the lines of `fifteen solve --threads 1` (times aside), whatever the
workers, their failures and restarts: every bound is merged from the results of every item up
to its first solution, each the same bytes wherever and however often it ran.
"""

import argparse
import json
import logging
import os
import sys
import tempfile
import time

from . import cut, task


# Dask's timers that cost CPU while nothing happens (docs/shard-and-dask.md, "Dask's idle
# CPU"): a local cluster started for the search takes these settings, which the docs recommend
# for a cluster's scheduler and workers.
IDLE_SETTINGS = {
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.profile.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
}


class Failure(Exception):
    """A one-line error (exit status 2)."""


def parse(argv):
    parser = argparse.ArgumentParser(prog="python -m fifteen.dask")
    commands = parser.add_subparsers(dest="command", required=True)
    solve = commands.add_parser("solve", help="solve one position on a Dask cluster")
    solve.add_argument("position", nargs="+", help="the start position, as for fifteen solve")
    solve.add_argument("--size", help="board size RxC")
    solve.add_argument("--convention", choices=["knuth", "korf"])
    solve.add_argument(
        "--metric", choices=["stm", "mtm"], help="how moves are counted, as for fifteen solve"
    )
    solve.add_argument("--goal", help="the goal, any position of the board, as for fifteen solve")
    solve.add_argument("--engine", choices=["automaton", "ida"])
    solve.add_argument(
        "--heuristic",
        help="manhattan, a partition such as 5-5-5, or default (MTM: walking, relabel, default)",
    )
    solve.add_argument("--tables", help="table directory, the same path on every worker")
    solve.add_argument(
        "--prune", choices=["fsm", "none"], help="duplicate pruning, as for fifteen solve"
    )
    solve.add_argument(
        "--all", action="store_true", help="every optimal solution, as for fifteen solve"
    )
    solve.add_argument(
        "--items", type=int, help="subtrees of the cut (default: 16 a worker thread)"
    )
    solve.add_argument(
        "--task-nodes",
        type=int,
        default=cut.LEAST,
        metavar="N",
        help=f"the least nodes a task takes by the bound before (default {cut.LEAST:,})",
    )
    where = solve.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", help="a running scheduler, tcp://HOST:8786 (or tls://)")
    where.add_argument("--local", type=int, metavar="N", help="N local worker processes")
    solve.add_argument("--journal", help="keep plans and results here, and resume from them")
    solve.add_argument("--tls-ca-file", help="the CA certificate of the cluster's TLS")
    solve.add_argument("--tls-cert", help="this client's certificate (TLS)")
    solve.add_argument("--tls-key", help="this client's private key (TLS)")
    return parser.parse_args(argv)


def write(path, text):
    """Writes `text` to `path` atomically (a temporary file beside it, then renamed)."""
    temporary = f"{path}.{os.getpid()}.tmp"
    with open(temporary, "w") as file:
        file.write(text)
    os.replace(temporary, path)


def read(path):
    with open(path) as file:
        return file.read()


class Progress:
    """The bound's progress on stderr, redrawn in place as tasks finish, when stderr is a
    terminal (as `fifteen solve`'s progress line)."""

    def __init__(self, label, tasks):
        self.label, self.tasks, self.done, self.nodes = label, tasks, 0, 0
        self.shown = sys.stderr.isatty()
        self.clock = time.monotonic()

    def task_done(self, nodes):
        self.done += 1
        self.nodes += nodes
        if self.shown:
            seconds = time.monotonic() - self.clock
            sys.stderr.write(
                f"\r\x1b[Ksearching {self.label}: {seconds:.0f} s, "
                f"{self.done}/{self.tasks} tasks done, {self.nodes} nodes"
            )
            sys.stderr.flush()

    def clear(self):
        if self.shown and self.done:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def check_workers(client, plan_text, tables):
    """Raises a Failure naming the first worker that cannot search the plan."""
    import fifteen

    check = task.by_value(task.check)
    answers = client.run(check, plan_text, tables, fifteen.__version__, on_error="return")
    if not answers:
        raise Failure("the scheduler has no worker: start dask worker SCHEDULER on each machine")
    for worker, answer in sorted(answers.items()):
        # An exception is a worker that went away meanwhile: the scheduler moves its tasks.
        if isinstance(answer, str):
            joint = " " if answer.startswith("has ") else ": "
            raise Failure(f"worker {worker}{joint}{answer}")


def journaled(folder, plan_id):
    """The results of the plan `plan_id` kept in `folder`, by item."""
    results = {}
    for name in os.listdir(folder):
        if name.endswith(".json"):
            try:
                result = json.loads(read(os.path.join(folder, name)))
            except ValueError:
                continue  # a result cut short by a kill: run again
            if result.get("plan") == plan_id:
                results[result["item"]] = result
    return results


# What makes two plans plans of the same bound of the same search (their cuts aside).
SAME_SEARCH = (
    "format", "version", "board", "position", "convention", "metric", "goal", "engine",
    "heuristic", "prune", "tables", "bound", "happy", "sad", "all",
)


def journal_plan(path, fresh):
    """The plan kept at `path` by an earlier driver, if it is a plan of the same bound of the
    same search as the plan `fresh` (JSON): its text; else None. Its cut may differ from
    fresh's (another cluster cuts another number of items), and its results are kept under
    its own id."""
    try:
        kept = read(path)
        plan = json.loads(kept)
    except (OSError, ValueError):
        return None
    new = json.loads(fresh)
    if not isinstance(plan, dict) or any(plan.get(k) != new.get(k) for k in SAME_SEARCH):
        return None
    return kept


def bound(args, client, journal, number, flags, past):
    """Plans, runs and merges one bound; returns (merge's lines, the plan, its results)."""
    import fifteen

    threads = sum(client.nthreads().values()) or 1
    splits = past.splits(threads)
    if splits:
        split_path = os.path.join(journal, f"split-{number}.json")
        write(split_path, json.dumps(splits))
        flags = dict(flags, split=split_path)
    plan_path = os.path.join(journal, f"plan-{number}.json")
    try:
        plan_text = fifteen.shard_plan(" ".join(args.position), **flags)
    except ValueError as error:  # NoSolution is one too: it is said on stdout
        if isinstance(error, fifteen.NoSolution):
            raise
        raise Failure(str(error)) from None
    # A driver started again on its journal searches the journal's plan of the bound, which
    # names its results, whatever the cluster now (the cut depends on its threads).
    kept_plan = journal_plan(plan_path, plan_text)
    if kept_plan is None:
        write(plan_path, plan_text)
    else:
        plan_text = kept_plan
    plan = json.loads(plan_text)
    folder = os.path.join(journal, plan["id"])
    os.makedirs(folder, exist_ok=True)
    results = journaled(folder, plan["id"])
    kept = len(results)
    pending = [
        i
        for i, item in enumerate(plan["items"])
        if i not in results and (item["happy"], item["sad"]) != (0, 0)
    ]
    tasks = cut.batches(plan, pending, past, threads) if not cut.settled(plan, results) else []
    ran, done, cancelled = 0, 0, []
    # Every bound: a worker may have joined since the last.
    check_workers(client, plan_text, args.tables)
    if tasks:
        from distributed import as_completed

        progress = Progress(plan["bound"], len(tasks))
        shared = client.scatter(plan_text, broadcast=True, hash=False)
        run_items = task.by_value(task.run_items)
        futures = [
            # In list order: any bound may be the last, where every item before the first
            # solution is needed and none after it.
            client.submit(
                run_items,
                shared,
                items,
                args.tables,
                key=f"fifteen-{plan['id']}-{items[0]}-{len(items)}",
                priority=-items[0],
                retries=2,
                pure=False,
            )
            for items in tasks
        ]
        try:
            for future in as_completed(futures):
                try:
                    texts = future.result()
                except Exception as error:  # the task's error, raised again here
                    client.cancel(futures)
                    line = str(error).splitlines()[0] if str(error) else repr(error)
                    raise Failure(line) from None
                nodes = 0
                for i, text in texts.items():
                    write(os.path.join(folder, f"{i}.json"), text)
                    results[i] = json.loads(text)
                    nodes += results[i]["nodes"]
                    ran += 1
                done += 1
                progress.task_done(nodes)
                if cut.settled(plan, results):
                    # The rest is not needed: its tasks stop (a running one within seconds).
                    cancelled = [
                        items for items, f in zip(tasks, futures) if not f.done()
                    ]
                    client.cancel([f for f in futures if not f.done()])
                    break
        finally:
            progress.clear()
    nodes = sorted(result["nodes"] for result in results.values())
    spread = nodes and f", nodes an item {nodes[0]}, {nodes[len(nodes) // 2]}, {nodes[-1]}"
    print(
        bound_line(plan, (args.journal is not None, kept_plan is not None, kept), ran, done,
                   cancelled) + (spread or ""),
        file=sys.stderr,
        flush=True,
    )
    texts = [json.dumps(results[i]) for i in sorted(results)]
    try:
        lines = fifteen.shard_merge(plan_text, texts)
    except ValueError as error:
        raise Failure(str(error)) from None
    return lines, plan, results


def bound_line(plan, journaled, ran, done, cancelled):
    """The summary of a bound on stderr: its items (with `--journal`, whether the plan was the
    journal's and how many results it held), the items run and the tasks that ran them, and
    the tasks cancelled once the bound was settled, with their items."""
    journal, reused, kept = journaled
    line = f"bound {plan['bound']}: {len(plan['items'])} items"
    if journal:
        line += " (the journal's plan)" if reused else ""
        line += f", {kept} from the journal"
    line += f", {ran} run in {done} task{'' if done == 1 else 's'}"
    if cancelled:
        count = len(cancelled)
        items = sum(len(task) for task in cancelled)
        line += (
            f", {count} task{'' if count == 1 else 's'} of {items} item"
            f"{'' if items == 1 else 's'} cancelled, not needed"
        )
    return line


def solve(args, client, journal):
    flags = {
        name: getattr(args, name)
        for name in (
            "size", "convention", "metric", "goal", "engine", "heuristic", "tables", "prune",
            "all", "items",
        )
    }
    if args.items is None:
        # The cut's subtrees: 16 a worker thread where nothing is known yet; then deeper
        # where the bound before found large subtrees (Past.splits).
        threads = sum(client.nthreads().values()) or 1
        flags["items"] = max(16, 16 * threads)
    past, number = cut.Past(args.task_nodes), 0
    while True:
        clock = time.monotonic()
        lines, plan, results = bound(args, client, journal, number, flags, past)
        seconds = time.monotonic() - clock
        # With --all, the bound that holds solutions gives each, then their count: the time
        # goes on the count's line, as `fifteen solve --all` prints it.
        shown = [line for line in lines if line.startswith("Solution in ")]
        counts = [
            line for line in lines if line.endswith((" optimal solution", " optimal solutions"))
        ]
        if args.all and shown and counts:
            for line in shown:
                print(line)
            print(f"{counts[0]} ({seconds:.2f} sec)", flush=True)
        else:
            print(f"{lines[0]} ({seconds:.2f} sec)", flush=True)
        nexts = [line.split(": ", 1)[1] for line in lines if line.startswith("next bound: ")]
        if not nexts:
            return 0
        flags["bound"] = nexts[0]
        past.learn(plan, results)
        number += 1


def security(args):
    """Dask's Security of the TLS flags, or None without them."""
    given = [args.tls_ca_file, args.tls_cert, args.tls_key]
    if not any(given):
        return None
    if not all(given):
        raise Failure("TLS needs all three of --tls-ca-file, --tls-cert and --tls-key")
    from distributed.security import Security

    return Security(
        tls_ca_file=args.tls_ca_file,
        tls_client_cert=args.tls_cert,
        tls_client_key=args.tls_key,
        require_encryption=True,
    )


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.local is not None and args.local < 1:
        print("--local needs at least 1 worker", file=sys.stderr)
        return 2
    if args.task_nodes < 1:
        print("--task-nodes needs at least 1 node", file=sys.stderr)
        return 2
    try:
        import cloudpickle  # noqa: F401  (distributed's own dependency)
        import distributed  # noqa: F401
    except ImportError as error:
        print(
            f"fifteen.dask needs the Python package {error.name}: pip install "
            "'fifteen[dask]' (or distributed) into the Python that runs the driver",
            file=sys.stderr,
        )
        return 2
    import fifteen

    try:
        if args.journal:
            os.makedirs(args.journal, exist_ok=True)
            return on_cluster(args, args.journal)
        with tempfile.TemporaryDirectory(prefix="fifteen-dask-") as scratch:
            return on_cluster(args, scratch)
    except fifteen.NoSolution as message:
        print(str(message))
        return 1
    except Failure as failure:
        print(failure, file=sys.stderr)
        return 2
    except OSError as error:
        print(f"fifteen.dask: {error}", file=sys.stderr)
        return 2


def on_cluster(args, journal):
    """Solves on the scheduler of `args`, or on a local cluster started for the search."""
    import cloudpickle
    from distributed import Client, LocalCluster

    # The scheduler unpickles the tasks: what they call is sent by value.
    cloudpickle.register_pickle_by_value(task)
    tls = security(args)
    if args.local is not None:
        import dask

        # The scheduler reads them here, the nannies pass them on to their workers.
        with dask.config.set(IDLE_SETTINGS):
            cluster = LocalCluster(
                n_workers=args.local,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
        client = Client(cluster)
    else:
        cluster = None
        if args.scheduler.startswith("tls://") and tls is None:
            raise Failure(
                f"the scheduler {args.scheduler} speaks TLS: give --tls-ca-file, --tls-cert "
                "and --tls-key"
            )
        try:
            client = Client(args.scheduler, security=tls, timeout=30)
        except Exception as error:  # whatever Dask raises, said in one line
            said = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise Failure(f"cannot reach the scheduler {args.scheduler}: {said}") from None
    try:
        return solve(args, client, journal)
    finally:
        # Tasks cancelled at the end may still report to a client that has gone: the
        # scheduler's complaints about it then are no news.
        logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)
        client.close()
        if cluster is not None:
            cluster.close()
