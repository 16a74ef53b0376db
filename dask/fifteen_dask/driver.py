"""`python3 -m fifteen_dask solve POSITION`: fifteen's search on a Dask cluster, bound after
bound, with the answer of one thread.

Each bound is cut by `fifteen shard plan` on this machine; its subtrees go to the workers as
tasks (`fifteen shard run`, see task.py), the largest first by the previous bound's sizes;
once the results settle the bound (every item before the first solution done, or all of them),
the tasks still pending are cancelled and `fifteen shard merge` gives the bound's line, printed
as `fifteen solve --threads 1` prints it. With `--journal DIR` every plan and result is kept in
DIR, so a driver started again on it takes the finished items from there instead of running
them again.
"""

import argparse
import json
import logging
import os
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
        "--items", type=int, help="subtrees per bound (default: 16 a worker thread)"
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


def sizes_by_prefix(plan, results):
    """The nodes of each item of a finished bound, summed under every prefix of its moves."""
    sizes = {}
    for i, item in enumerate(plan["items"]):
        nodes = results.get(i, {}).get("nodes", 0)
        moves = tuple(item["moves"])
        for length in range(len(moves) + 1):
            sizes[moves[:length]] = sizes.get(moves[:length], 0) + nodes
    return sizes


def predicted(sizes, moves):
    """An item's size as the previous bound suggests: its own, or its longest prefix's."""
    moves = tuple(moves)
    for length in range(len(moves), -1, -1):
        if moves[:length] in sizes:
            return sizes[moves[:length]]
    return 0


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


def bound(args, client, journal, number, flags, sizes):
    """Plans, runs and merges one bound; returns (merge's lines, the plan, its results)."""
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
    ran = 0
    if pending and not settled(plan, results):
        from distributed import as_completed

        shared = client.scatter(plan_text, broadcast=True, hash=False)
        futures = {}
        for i in pending:
            size = predicted(sizes, plan["items"][i]["moves"])
            future = client.submit(
                task.run_item,
                args.fifteen,
                shared,
                plan["id"],
                i,
                args.tables,
                key=f"fifteen-{plan['id']}-{i}",
                priority=size,
                retries=2,
                pure=False,
            )
            futures[future.key] = (i, future)
        finished = as_completed([future for _, future in futures.values()])
        for future in finished:
            i = futures[future.key][0]
            try:
                text = future.result()
            except Exception as error:  # the task's error, raised again here
                client.cancel([f for _, f in futures.values()])
                raise Failure(str(error).splitlines()[0] if str(error) else repr(error))
            write(os.path.join(folder, f"{i}.json"), text)
            results[i] = json.loads(text)
            ran += 1
            if settled(plan, results):
                client.cancel([f for _, f in futures.values() if not f.done()])
                break
    print(
        f"bound {plan['bound']}: {len(plan['items'])} items, {journaled} from the journal, "
        f"{ran} run",
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
        # Items per bound: 16 a worker thread. Each item is a process that reads the blocks
        # of the tables its subtree looks at, so the plan's default (enough for a few hundred
        # workers) costs a small cluster more than it balances: Korf & Felner's #32 on two
        # local workers took 98 s with 1184 items a bound and 27 s with 37.
        threads = sum(client.nthreads().values()) or 1
        flags += ["--items", str(max(16, 16 * threads))]
    sizes, next_bound, number = {}, [], 0
    while True:
        clock = time.monotonic()
        lines, plan, results = bound(args, client, journal, number, flags + next_bound, sizes)
        seconds = time.monotonic() - clock
        if not lines:
            raise Failure("fifteen shard merge printed nothing")
        print(f"{lines[0]} ({seconds:.2f} sec)", flush=True)
        nexts = [line.split(": ", 1)[1] for line in lines if line.startswith("next bound: ")]
        if not nexts:
            return 0
        next_bound = ["--bound", nexts[0]]
        sizes = sizes_by_prefix(plan, results)
        number += 1


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.local is not None and args.local < 1:
        print("--local needs at least 1 worker", file=sys.stderr)
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
