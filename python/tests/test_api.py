"""The package's answers are the binary's: the same lengths, moves and nodes on the 3x3, 3x4,
4x4 and 5x5 cases of tests/, and bad input raises ValueError with the binary's one line."""

import json
import re
import threading
import time

import pytest

import fifteen
from conftest import cli

# (position, heuristic) of tests/shard.rs and tests/data/corpus.tsv; 3x4 ones come seeded
# from `fifteen scramble`, as tests/crosscheck.rs takes them.
CASES = [
    ("076823514", "8"),
    ("076823514", "manhattan"),
    ("867254301", "8"),
    ("26071e5349afcdb8", "manhattan"),
    ("96d4103f72c5eab8", "5-5-5"),
    ("6,2,3,0,10,1,18,12,5,4,16,7,13,9,15,8,11,19,14,20,21,17,22,23,24", "manhattan"),
]


def three_by_four():
    _, out, _ = cli("scramble", "--size", "3x4", "--count", "2", "--seed", "7", "--walk", "40")
    return [(line, "6-5") for line in out.split()]


def cli_report(position, heuristic, tables, *more):
    _, out, _ = cli(
        "solve", position, "--heuristic", heuristic, "--tables", str(tables), "--json", *more
    )
    return json.loads(out)


@pytest.mark.parametrize("threads", [1, 2])
def test_solve_gives_the_binarys_lengths_moves_and_nodes(tables, threads):
    bounds = 0
    for position, heuristic in CASES + three_by_four():
        expected = cli_report(position, heuristic, tables, "--threads", str(threads))
        got = fifteen.solve(position, heuristic=heuristic, tables=tables, threads=threads)
        assert got.solvable and got.length == expected["length"] > 0, position
        assert (got.happy, got.sad, got.moves) == (
            expected["happy"],
            expected["sad"],
            expected["moves"],
        )
        assert got.heuristic == expected["heuristic"] == heuristic
        # Nodes of every bound that one thread completes are the same for any thread count;
        # one thread's are the same to the last node.
        ours = [(b.happy, b.sad, b.nodes) for b in got.bounds if b.completed]
        theirs = [(b["happy"], b["sad"], b["nodes"]) for b in expected["bounds"] if b["completed"]]
        assert ours == theirs, position
        bounds += len(ours)
        if threads == 1:
            assert got.nodes == expected["nodes"]
            assert [b.nodes for b in got.bounds] == [b["nodes"] for b in expected["bounds"]]
    assert bounds >= 20, "too few bounds compared"


def test_tiles_as_a_list_and_every_solution(tables):
    got = fifteen.solve([0, 7, 6, 8, 2, 3, 5, 1, 4], heuristic="8", tables=tables, threads=1)
    assert got.moves == fifteen.solve("076823514", heuristic="8", tables=tables).moves
    every = fifteen.solve("867254301", heuristic="manhattan", all=True, threads=1)
    _, out, _ = cli("solve", "867254301", "--heuristic", "manhattan", "--all", "--json")
    assert every.solutions == json.loads(out)["solutions"] and len(every.solutions) == 40


def test_the_multi_tile_metric_is_the_binarys(tables):
    got = fifteen.solve("076823514", metric="mtm", heuristic="walking", threads=1)
    _, out, _ = cli("solve", "076823514", "--metric", "mtm", "--heuristic", "walking", "--json")
    expected = json.loads(out)
    assert got.report["moves"] == expected["moves"] and got.nodes == expected["nodes"]
    assert [(b.length, b.nodes) for b in got.bounds] == [
        (b["bound"], b["nodes"]) for b in expected["bounds"]
    ]


def test_solve_many_reads_the_tables_once(tables):
    positions = [p for p, h in CASES if h == "manhattan"]
    many = fifteen.solve_many(positions, heuristic="manhattan", threads=1)
    assert [s.length for s in many] == [
        cli_report(p, "manhattan", tables)["length"] for p in positions
    ]


def test_an_unsolvable_position_says_so():
    got = fifteen.solve("213456780")
    status, out, _ = cli("solve", "213456780", "--json", check=False)
    assert status == 1 and not got.solvable
    assert got.report == json.loads(out)
    with pytest.raises(fifteen.NoSolution) as raised:
        fifteen.shard_plan("213456780")
    _, out, _ = cli("shard", "plan", "213456780", "--out", "/dev/null", check=False)
    assert str(raised.value) == out.strip()


@pytest.mark.parametrize(
    "call, argv",
    [
        (lambda: fifteen.solve("12345"), ["solve", "12345"]),
        (
            lambda: fifteen.solve("076823514", heuristic="9-9"),
            ["solve", "076823514", "--heuristic", "9-9"],
        ),
        (lambda: fifteen.solve("076823514", size="4x4"), ["solve", "076823514", "--size", "4x4"]),
        (lambda: fifteen.solve("076823514", threads=0), ["solve", "076823514", "--threads", "0"]),
        (
            lambda: fifteen.solve("076823514", metric="xtm"),
            ["solve", "076823514", "--metric", "xtm"],
        ),
        (
            lambda: fifteen.shard_plan("076823514", bound="3+3", heuristic="manhattan"),
            [
                "shard",
                "plan",
                "076823514",
                "--bound",
                "3+3",
                "--heuristic",
                "manhattan",
                "--out",
                "/dev/null",
            ],
        ),
        (lambda: fifteen.crosscheck(count=0), ["crosscheck", "--count", "0"]),
        (
            lambda: fifteen.crosscheck(walk=2000000, engines=["ida", "korf"]),
            ["crosscheck", "--walk", "2000000", "--engines", "ida,korf"],
        ),
        (
            lambda: fifteen.crosscheck(metric="mtm", threads=2),
            ["crosscheck", "--metric", "mtm", "--threads", "2"],
        ),
    ],
)
def test_bad_input_is_a_value_error_with_the_binarys_line(call, argv):
    status, _, err = cli(*argv, check=False)
    assert status == 2 and len(err.splitlines()) == 1, err
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value) == err.strip()


@pytest.mark.parametrize(
    "options, argv",
    [
        ({"count": 30, "seed": 3}, ["--count", "30", "--seed", "3"]),
        # The BFS engine past its memory: its runs skipped, and a line says why.
        ({"count": 5, "memory": "64K"}, ["--count", "5", "--memory", "64K"]),
        (
            {"size": "3x4", "count": 4, "walk": 40, "engines": ["automaton", "ida"]},
            ["--size", "3x4", "--count", "4", "--walk", "40", "--engines", "automaton,ida"],
        ),
        ({"count": 10, "metric": "mtm"}, ["--count", "10", "--metric", "mtm"]),
    ],
)
def test_crosscheck_gives_the_binarys_counts_and_lines(tables, options, argv):
    got = fifteen.crosscheck(**options, heuristic="default", tables=tables)
    _, out, _ = cli("crosscheck", *argv, "--heuristic", "default", "--tables", str(tables))
    assert got.lines == out.splitlines()
    summary = re.fullmatch(
        r"(\d+) positions, (\d+) engine runs(?: \((\d+) skipped\))?, (\d+) disagreements?",
        got.lines[-1],
    )
    positions, runs, skipped, disagreements = (int(n or 0) for n in summary.groups())
    assert (got.positions, got.runs, got.skipped, got.disagreements) == (
        positions,
        runs,
        skipped,
        disagreements,
    )
    assert got.agreed and got.positions == options["count"] and got.runs > 0


def test_shards_merge_into_the_lines_of_one_thread(tables):
    position, heuristic = "96d4103f72c5eab8", "5-5-5"
    _, out, _ = cli(
        "solve", position, "--heuristic", heuristic, "--tables", str(tables), "--threads", "1"
    )
    expected = [line.rsplit(" (", 1)[0] for line in out.splitlines()]
    lines, bound = [], None
    while True:
        plan = fifteen.shard_plan(
            position, bound=bound, items=50, heuristic=heuristic, tables=tables
        )
        items = list(range(len(json.loads(plan)["items"])))
        # Two halves, each searched on its own, the second one first.
        half = len(items) // 2
        results = []
        for part in (items[half:], items[:half]):
            # A part may be empty (a plan of one item, or none): it searches nothing.
            searched = fifteen.shard_run(plan, part, tables)
            assert len(searched) <= len(part)
            results += searched
        merged = fifteen.shard_merge(plan, results)
        lines.append(merged[0])
        nexts = [line.split(": ")[1] for line in merged if line.startswith("next bound: ")]
        if not nexts:
            break
        bound = nexts[0]
    assert lines == expected


def test_a_plan_of_other_tables_is_refused(tables, tmp_path):
    plan = json.loads(fifteen.shard_plan("076823514", heuristic="8", tables=tables))
    fifteen.shard_check(json.dumps(plan), tables)
    plan["tables"] = ["00000000"]
    with pytest.raises(
        ValueError, match=r"tables \(checksums [0-9a-f]+\) are not the plan's \(8 00000000\)"
    ):
        fifteen.shard_check(json.dumps(plan), tables)
    plan["version"] = "0.0.0-other"
    with pytest.raises(
        ValueError, match=r"was planned by fifteen 0.0.0-other; this worker is fifteen"
    ):
        fifteen.shard_run(json.dumps(plan), [0], tables)


def test_the_search_runs_without_the_gil():
    """A Python thread keeps running while the core searches on another."""
    ticks, done = [], threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    clock = threading.Thread(target=tick)
    clock.start()
    start = time.monotonic()
    # Korf's #1, about half a second on one thread.
    fifteen.solve("d68cfe0ab7459132", heuristic="manhattan", threads=1)
    seconds = time.monotonic() - start
    done.set()
    clock.join()
    during = [t for t in ticks if start <= t <= start + seconds]
    assert seconds > 0.3, "the search is too short to tell"
    # With the GIL held, the ticking thread would not run at all during the search.
    assert len(during) > seconds / 0.01 / 4


def test_bound_lines_on_stderr_only_when_live(capfd):
    def untimed(text):
        return [re.sub(r" \(\d+\.\d\d sec\)$", "", line) for line in text.splitlines()]

    fifteen.solve("076823514", heuristic="manhattan", threads=1)
    assert capfd.readouterr().err == ""
    fifteen.solve("076823514", heuristic="manhattan", threads=1, live=True)
    err = capfd.readouterr().err
    _, out, _ = cli("solve", "076823514", "--heuristic", "manhattan", "--threads", "1")
    assert untimed(err) == untimed(out)[:-1] and len(untimed(err)) == 5


def test_tables_are_read_once_per_process(tmp_path, capfd):
    """Threads that need a table at once share one copy: the process reads it once between
    them, as its count of tables read says (without the sharing, the threads that waited for
    the builder's file each read a copy of their own, and the table is still built once).
    Once read, it is kept for the process: its file removed, later calls still search with
    it, and neither build nor read it again."""
    folder = tmp_path / "fresh"
    positions = ["076823514", "867254301", "806547231", "647850321"]
    answers = {}
    together = threading.Barrier(len(positions))

    def solve(position):
        together.wait()
        answers[position] = fifteen.solve(position, heuristic="8", tables=folder, threads=1)

    before = fifteen._core._tables_read()
    threads = [threading.Thread(target=solve, args=(p,)) for p in positions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    err = capfd.readouterr().err
    assert err.count("building the 3x3 8 table") == 1, err
    assert fifteen._core._tables_read() - before == 1, "each thread read its own copy"
    table = folder / "3x3_1-2-3-4-5-6-7-8.pdb"
    table.unlink()
    again = fifteen.solve(positions[0], heuristic="8", tables=folder, threads=1)
    assert "building" not in capfd.readouterr().err and not table.exists()
    assert fifteen._core._tables_read() - before == 1
    assert again.moves == answers[positions[0]].moves
    assert [answers[p].length for p in positions[:2]] == [26, 31]
    assert all(answers[p].solvable for p in positions)


def test_the_binary_and_the_package_share_plans_and_results(tmp_path):
    """A plan of the package run by `fifteen shard run`, its results merged by the package,
    gives the lines of `fifteen shard merge` on the same files."""
    plan = fifteen.shard_plan("26071e5349afcdb8", bound="33+5", items=40, heuristic="manhattan")
    path = tmp_path / "plan.json"
    path.write_text(plan)
    count = len(json.loads(plan)["items"])
    listed = ",".join(str(i) for i in range(count))
    (tmp_path / "results").mkdir()
    cli("shard", "run", str(path), "--item", listed, "--out-dir", str(tmp_path / "results"))
    files = sorted((tmp_path / "results").glob("*.json"))
    assert files and len(files) <= count
    _, out, _ = cli("shard", "merge", str(path), *map(str, files))
    merged = fifteen.shard_merge(plan, [f.read_text() for f in files])
    assert merged == out.splitlines() and merged[0] == " ... no solution with 33+5 moves"
    # The same item gives the same result, but the file's final line end.
    assert files[0].name == "0.json"
    assert fifteen.shard_run(plan, [0]) == [files[0].read_text().rstrip("\n")]


# The transposition: minutes of search with Manhattan distance in its later bounds.
LONG = "159d26ae37bf48c0"


@pytest.mark.parametrize("engine", ["automaton", "ida"])
@pytest.mark.parametrize("position, heuristic", [CASES[3], CASES[4], CASES[0]])
def test_a_stop_that_never_says_so_changes_no_result(tables, engine, position, heuristic):
    """shard_run with a stop searches each item in pieces, looking at the stop between them:
    every result is the same bytes as without it, bound after bound."""
    bound = None
    while True:
        plan = fifteen.shard_plan(
            position, bound=bound, items=8, engine=engine, heuristic=heuristic, tables=tables
        )
        items = list(range(len(json.loads(plan)["items"])))
        plain = fifteen.shard_run(plan, items, tables)
        assert fifteen.shard_run(plan, items, tables, stop=lambda: False) == plain
        merged = fifteen.shard_merge(plan, plain)
        nexts = [line.split(": ")[1] for line in merged if line.startswith("next bound: ")]
        if not nexts:
            break
        bound = nexts[0]


def test_a_stop_ends_a_long_item_within_seconds():
    """An item of minutes (the transposition's bound 53+13 cut into three subtrees) ends
    within seconds of its stop saying so, raising Stopped; the stop was asked while the
    search ran without the GIL."""
    plan = fifteen.shard_plan(LONG, bound="53+13", items=1, heuristic="manhattan")
    start = time.monotonic()
    asked = []

    def after_a_second():
        asked.append(time.monotonic() - start)
        return asked[-1] > 1.0

    with pytest.raises(fifteen.Stopped, match=r"item 0: stopped by cancellation in bound 53\+13"):
        fifteen.shard_run(plan, [0], stop=after_a_second)
    seconds = time.monotonic() - start
    assert len(asked) >= 5 and asked[-1] > 1.0
    assert seconds < 1.0 + 5.0, f"stopped {seconds - asked[-1]:.1f} s after the stop said so"


def test_a_limit_raises_stopped_with_the_binarys_line():
    with pytest.raises(fifteen.Stopped) as raised:
        fifteen.solve("d68cfe0ab7459132", heuristic="manhattan", threads=1, max_nodes=1_000_000)
    status, _, err = cli(
        "solve", "d68cfe0ab7459132", "--heuristic", "manhattan", "--threads", "1",
        "--max-nodes", "1000000", check=False,
    )
    assert status == 3
    # The same line, times aside.
    untimed = lambda line: re.sub(r" in \d+\.\d\d sec$", "", line)  # noqa: E731
    assert untimed(str(raised.value)) == untimed(err.strip())
