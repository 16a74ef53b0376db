"""`python3 -m fifteen_dask solve POSITION`: fifteen's search on a Dask cluster, bound after
bound, with the answer of one thread.

Each bound is cut by `fifteen shard plan` on this machine, deeper below the subtrees that the
bound before found large; its subtrees go to the workers as tasks in list order, each a batch
of consecutive subtrees of about equal size by the bound before (`fifteen shard run --item
I,J,...`, see task.py). Once the results settle the bound (every item before the first solution
done, or all of them), the tasks still pending are cancelled and `fifteen shard merge` gives
the bound's line, printed as `fifteen solve --threads 1` prints it. With `--journal DIR` every plan and result is kept in
DIR, so a driver started again on it takes the finished items from there instead of running
them again.
"""

import argparse
import importlib
import json
import logging
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

from . import task


class Failure(Exception):
    """A one-line error (exit status 2)."""


class NoSolution(Exception):
    """The position is unsolvable: fifteen's message (exit status 1)."""


def parse(argv):
    parser = argparse.ArgumentParser(prog="python3 -m fifteen_dask")
    commands = parser.add_subparsers(dest="command", required=True)
    solve = commands.add_parser("solve", help="solve one position on a Dask cluster")
    solve.add_argument("position", nargs="+", help="the start position, as for fifteen solve")
    solve.add_argument("--size", help="board size RxC")
    solve.add_argument("--convention", choices=["knuth", "korf"])
    solve.add_argument("--engine", choices=["automaton", "ida"])
    solve.add_argument("--heuristic", help="manhattan, a partition such as 5-5-5, or default")
    solve.add_argument("--tables", help="table directory, the same path on every worker")
    solve.add_argument(
        "--items", type=int, help="subtrees of the cut (default: 16 a worker thread)"
    )
    solve.add_argument(
        "--task-nodes",
        type=int,
        default=LEAST,
        metavar="N",
        help=f"the least nodes a task takes by the bound before (default {LEAST:,})",
    )
    where = solve.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", help="a running scheduler, tcp://HOST:8786")
    where.add_argument("--local", type=int, metavar="N", help="N local worker processes")
    solve.add_argument("--fifteen", default="fifteen", help="the binary, on every worker")
    solve.add_argument("--journal", help="keep plans and results here, and resume from them")
    return parser.parse_args(argv)


def fifteen(args, *words):
    """Runs the binary here; its standard output, or a Failure with its last stderr line
    (exit status 1, no solution, is returned as output to print)."""
    try:
        done = subprocess.run([args.fifteen, *words], capture_output=True, text=True)
    except OSError as error:
        raise Failure(f"cannot run {args.fifteen}: {error}") from error
    if done.returncode not in (0, 1):
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        raise Failure(lines[-1])
    return done.returncode, done.stdout


def write(path, text):
    """Writes `text` to `path` atomically (a temporary file beside it, then renamed)."""
    temporary = f"{path}.{os.getpid()}.tmp"
    with open(temporary, "w") as file:
        file.write(text)
    os.replace(temporary, path)


# A bound's work goes to the workers as about TASKS tasks a worker thread (fewer when the bound
# is small), so the last task of a bound keeps at most about 1/TASKS of a thread's share
# waiting. Each task is a process that reads the table blocks it looks at (about 50 ms for a
# task of a few million nodes on 6-6-6-6), so a task under LEAST nodes (about a second of a
# thread; --task-nodes) costs more than it balances, unless the bound is too small to give
# every thread one.
TASKS = 8
LEAST = 20_000_000


class Past:
    """What the bound before tells of the next: the nodes under each path (its items and
    their prefixes), its items, and how much a bound grows."""

    def __init__(self, least):
        self.sizes, self.items, self.totals, self.least = {}, [], [], least

    def learn(self, plan, results):
        self.sizes, self.items = {}, []
        for i, item in enumerate(plan["items"]):
            if (item["happy"], item["sad"]) == (0, 0):
                continue
            moves = tuple(item["moves"])
            self.items.append(moves)
            nodes = results.get(i, {}).get("nodes", 0)
            for length in range(len(moves) + 1):
                self.sizes[moves[:length]] = self.sizes.get(moves[:length], 0) + nodes
        self.totals.append(self.sizes.get((), 0))

    def growth(self):
        last = self.totals[-2:]
        return last[1] / last[0] if len(last) == 2 and last[0] and last[1] else 6.0

    def target(self, threads):
        """The nodes a task of the next bound should take (None: nothing known)."""
        if not self.totals or not self.totals[-1]:
            return None
        total = self.totals[-1] * self.growth()
        return max(min(self.least, total / threads), total / (threads * TASKS))

    def splits(self, threads):
        """`fifteen shard plan --split`'s list: as deep as before below every item of the
        bound before, and deeper below those that would outgrow a task (a move halves an
        item or better, mostly), so the cut only gets finer from bound to bound."""
        target = self.target(threads)
        if target is None:
            return []
        wanted = []
        for moves in self.items:
            ratio = self.sizes[moves] * self.growth() / target
            deeper = math.ceil(math.log2(ratio)) if ratio > 1 else 0
            wanted.append({"moves": list(moves), "depth": len(moves) + deeper})
        return wanted

    def predicted(self, plan):
        """Each item's nodes as the bound before suggests: the nodes under its path there,
        or its share of the item it is part of (nothing for a part of the tree new in this
        bound)."""
        items, known = set(self.items), []
        for item in plan["items"]:
            moves = tuple(item["moves"])
            parts = [moves[:n] for n in range(len(moves), 0, -1) if moves[:n] in items]
            known.append(moves if moves in self.sizes else (parts or [None])[0])
        shares = {}
        for prefix in known:
            shares[prefix] = shares.get(prefix, 0) + 1
        growth = self.growth()
        return [self.sizes.get(prefix, 0) * growth / shares[prefix] for prefix in known]


def batches(plan, pending, past, threads):
    """The pending items as tasks of consecutive items in list order, each of about the
    target size by the bound before (with nothing known, TASKS a thread of equal counts)."""
    target = past.target(threads)
    if target is None:
        count = max(1, math.ceil(len(pending) / (threads * TASKS)))
        return [pending[i : i + count] for i in range(0, len(pending), count)]
    sizes = past.predicted(plan)
    tasks, task, nodes = [], [], 0
    for i in pending:
        if task and nodes + sizes[i] > target:
            tasks.append(task)
            task, nodes = [], 0
        task.append(i)
        nodes += sizes[i]
    return tasks + [task] if task else tasks


def settled(plan, results):
    """Whether the results decide the bound: every item up to the first solution is done."""
    for i, item in enumerate(plan["items"]):
        if item["happy"] == 0 and item["sad"] == 0:
            return True
        if i not in results:
            return False
        if results[i]["solutions"]:
            return True
    return True


def bound(args, client, journal, number, flags, past):
    """Plans, runs and merges one bound; returns (merge's lines, the plan, its results)."""
    threads = sum(client.nthreads().values()) or 1
    splits = past.splits(threads)
    if splits:
        split_path = os.path.join(journal, f"split-{number}.json")
        write(split_path, json.dumps(splits))
        flags = flags + ["--split", split_path]
    plan_path = os.path.join(journal, f"plan-{number}.json")
    status, said = fifteen(args, "shard", "plan", *args.position, *flags, "--out", plan_path)
    if status == 1:
        raise NoSolution(said)
    with open(plan_path) as file:
        plan_text = file.read()
    plan = json.loads(plan_text)
    folder = os.path.join(journal, plan["id"])
    os.makedirs(folder, exist_ok=True)
    results = {}
    for name in os.listdir(folder):
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as file:
                result = json.load(file)
            if result.get("plan") == plan["id"]:
                results[result["item"]] = result
    journaled = len(results)
    pending = [
        i
        for i, item in enumerate(plan["items"])
        if i not in results and (item["happy"], item["sad"]) != (0, 0)
    ]
    tasks = batches(plan, pending, past, threads) if not settled(plan, results) else []
    ran = 0
    if tasks:
        from distributed import as_completed

        shared = client.scatter(plan_text, broadcast=True, hash=False)
        futures = [
            # In list order: any bound may be the last, where every item before the first
            # solution is needed and none after it.
            client.submit(
                task.run_items,
                args.fifteen,
                shared,
                plan["id"],
                items,
                args.tables,
                key=f"fifteen-{plan['id']}-{items[0]}-{len(items)}",
                priority=-items[0],
                retries=2,
                pure=False,
            )
            for items in tasks
        ]
        for future in as_completed(futures):
            try:
                texts = future.result()
            except Exception as error:  # the task's error, raised again here
                client.cancel(futures)
                raise Failure(str(error).splitlines()[0] if str(error) else repr(error))
            for i, text in texts.items():
                write(os.path.join(folder, f"{i}.json"), text)
                results[i] = json.loads(text)
                ran += 1
            if settled(plan, results):
                client.cancel([f for f in futures if not f.done()])
                break
    nodes = sorted(result["nodes"] for result in results.values())
    spread = nodes and f", nodes an item {nodes[0]}, {nodes[len(nodes) // 2]}, {nodes[-1]}"
    print(
        f"bound {plan['bound']}: {len(plan['items'])} items, {journaled} from the journal, "
        f"{ran} run in {len(tasks)} tasks{spread or ''}",
        file=sys.stderr,
    )
    files = [os.path.join(folder, f"{i}.json") for i in sorted(results)]
    _, merged = fifteen(args, "shard", "merge", plan_path, *files)
    return merged.splitlines(), plan, results


def solve(args, client, journal):
    flags = []
    for name in ("size", "convention", "engine", "heuristic", "tables", "items"):
        value = getattr(args, name)
        if value is not None:
            flags += [f"--{name}", str(value)]
    if args.items is None:
        # The cut's subtrees: 16 a worker thread where nothing is known yet; then deeper
        # where the bound before found large subtrees (Past.splits).
        threads = sum(client.nthreads().values()) or 1
        flags += ["--items", str(max(16, 16 * threads))]
    past, next_bound, number = Past(args.task_nodes), [], 0
    while True:
        clock = time.monotonic()
        lines, plan, results = bound(args, client, journal, number, flags + next_bound, past)
        seconds = time.monotonic() - clock
        if not lines:
            raise Failure("fifteen shard merge printed nothing")
        print(f"{lines[0]} ({seconds:.2f} sec)", flush=True)
        nexts = [line.split(": ", 1)[1] for line in lines if line.startswith("next bound: ")]
        if not nexts:
            return 0
        next_bound = ["--bound", nexts[0]]
        past.learn(plan, results)
        number += 1


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.local is not None and args.local < 1:
        print("--local needs at least 1 worker", file=sys.stderr)
        return 2
    if args.task_nodes < 1:
        print("--task-nodes needs at least 1 node", file=sys.stderr)
        return 2
    missing = missing_module()
    if missing:
        print(
            f"fifteen_dask needs the Python package {missing}: install it into the Python that "
            "runs the driver (python3 -m venv venv && venv/bin/pip install -r "
            "dask/requirements.txt, then venv/bin/python -m fifteen_dask ...)",
            file=sys.stderr,
        )
        return 2
    if args.fifteen == "fifteen" and shutil.which("fifteen") is None:
        print(
            "no fifteen on the PATH: give --fifteen with the binary's path (cargo build "
            "--release writes target/x86_64-unknown-linux-gnu/release/fifteen), or put it on "
            "the PATH with cargo install --path .",
            file=sys.stderr,
        )
        return 2
    try:
        if args.journal:
            os.makedirs(args.journal, exist_ok=True)
            return on_cluster(args, args.journal)
        with tempfile.TemporaryDirectory(prefix="fifteen-dask-") as scratch:
            return on_cluster(args, scratch)
    except NoSolution as message:
        print(str(message), end="")
        return 1
    except Failure as failure:
        print(failure, file=sys.stderr)
        return 2
    except OSError as error:
        print(f"fifteen_dask: {error}", file=sys.stderr)
        return 2


def missing_module():
    """The first package the driver needs that this Python lacks, if any."""
    for name in ("distributed", "cloudpickle"):
        try:
            importlib.import_module(name)
        except ImportError:
            return name
    return None


def on_cluster(args, journal):
    """Solves on the scheduler of `args`, or on a local cluster started for the search."""
    from distributed import Client, LocalCluster
    import cloudpickle

    # The workers need the binary and its tables, not this package.
    cloudpickle.register_pickle_by_value(task)
    if args.local is not None:
        cluster = LocalCluster(
            n_workers=args.local,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
        client = Client(cluster)
    else:
        cluster, client = None, Client(args.scheduler)
    try:
        return solve(args, client, journal)
    finally:
        # Tasks cancelled at the end may still report to a client that has gone: the
        # scheduler's complaints about it then are no news.
        logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)
        client.close()
        if cluster is not None:
            cluster.close()
