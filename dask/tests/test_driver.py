"""The Dask driver gives the lines of `fifteen solve --threads 1`: with two local workers, with
a worker killed (SIGKILL) mid-bound, and when started again on the journal of a driver killed
mid-search, without running again the items that journal holds."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

DASK = Path(__file__).resolve().parents[1]
ROOT = DASK.parent
FIFTEEN = Path(
    os.environ.get("FIFTEEN", ROOT / "target/x86_64-unknown-linux-gnu/release/fifteen")
)
# Small 4x4 positions of tests/data/corpus.tsv: 40 and 42 moves, 7 and 8 bounds.
SMALL = "26071e5349afcdb8"
LARGER = "96d4103f72c5eab8"


@pytest.fixture(autouse=True)
def tables(tmp_path, monkeypatch):
    """Manhattan needs no tables; any others would be kept here, never in the user's cache."""
    assert FIFTEEN.exists(), f"{FIFTEEN} is missing: cargo build --release (or FIFTEEN=PATH)"
    monkeypatch.setenv("FIFTEEN_TABLES", str(tmp_path / "tables"))


def untimed(text):
    return [re.sub(r" \(\d+\.\d\d sec\)$", "", line) for line in text.splitlines()]


def solve(position):
    done = subprocess.run(
        [FIFTEEN, "solve", position, "--heuristic", "manhattan", "--threads", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    return untimed(done.stdout)


@pytest.fixture
def wrapper(tmp_path):
    """A `fifteen` that logs each command line and can be slowed down (DELAY seconds per
    shard run), with the log's path."""
    log = tmp_path / "calls.log"
    script = tmp_path / "fifteen"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> {log}\n'
        'if [ "$1 $2" = "shard run" ]; then sleep "${DELAY:-0}"; fi\n'
        f'exec {FIFTEEN} "$@"\n'
    )
    script.chmod(0o755)
    return script, log


def driver(position, fifteen, *flags, delay=0):
    """The driver on `position` with two local workers, started in a session of its own."""
    command = [sys.executable, "-m", "fifteen_dask", "solve", position]
    command += ["--heuristic", "manhattan", "--items", "60", "--task-nodes", "1", "--local", "2"]
    command += ["--fifteen", str(fifteen), *flags]
    environment = dict(os.environ, DELAY=str(delay))
    return subprocess.Popen(
        command,
        cwd=DASK,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def finish(process, timeout=240):
    stdout, stderr = process.communicate(timeout=timeout)
    assert process.returncode == 0, stderr
    return stdout, stderr


def tasks(log):
    """The (plan, items) of each `shard run` logged."""
    found = []
    for line in log.read_text().splitlines() if log.exists() else []:
        match = re.match(r"shard run \S*/(\S+)\.plan\.json --item ([\d,]+) ", line)
        if match:
            found.append((match[1], [int(i) for i in match[2].split(",")]))
    return found


def runs(log):
    """The (plan, item) of each item handed to a `shard run`."""
    return [(plan, i) for plan, items in tasks(log) for i in items]


def wait_for(condition, what, timeout=120):
    clock = time.monotonic()
    while not condition():
        assert time.monotonic() - clock < timeout, f"waited too long for {what}"
        time.sleep(0.05)


def test_two_local_workers_give_the_lines_of_one_thread(wrapper):
    fifteen, log = wrapper
    stdout, stderr = finish(driver(SMALL, fifteen))
    assert untimed(stdout) == solve(SMALL)
    assert untimed(stdout)[-1].startswith("Solution in 34+6 moves: ")
    # The bounds were really cut and run on the workers, in batches of items.
    assert len(runs(log)) >= 100, stderr
    assert len(tasks(log)) >= 30 and max(len(t[1]) for t in tasks(log)) > 1, stderr
    assert re.search(r"bound 33\+5: \d+ items, 0 from the journal, \d+ run in \d+ tasks", stderr)


def test_a_worker_killed_mid_bound_changes_nothing(wrapper):
    fifteen, log = wrapper
    process = driver(LARGER, fifteen, delay=0.1)
    me = psutil.Process(process.pid)

    def running_worker():
        # A worker is the parent of a `fifteen shard run` in progress (the wrapper's sleep).
        for child in me.children(recursive=True):
            try:
                if child.cmdline()[:1] == ["/bin/sh"] and "shard run" in " ".join(
                    child.cmdline()
                ):
                    return child.parent()
            except psutil.NoSuchProcess:
                continue
        return None

    wait_for(lambda: len(runs(log)) >= 20, "the first tasks")
    # The worker seen running a task (a second look might find it between two).
    seen = []
    wait_for(lambda: seen.append(running_worker()) or seen[-1], "a task in progress")
    worker = seen[-1]
    assert worker.pid != process.pid
    worker.send_signal(signal.SIGKILL)
    stdout, _ = finish(process)
    assert untimed(stdout) == solve(LARGER)


def test_a_driver_restarted_on_its_journal_runs_no_finished_item_again(wrapper, tmp_path):
    fifteen, log = wrapper
    journal = tmp_path / "journal"
    first = driver(LARGER, fifteen, "--journal", str(journal), delay=0.02)

    def journaled():
        return {
            (folder.name, int(result.stem))
            for folder in journal.glob("*-*")
            if folder.is_dir()
            for result in folder.glob("*.json")
        }

    wait_for(lambda: len(journaled()) >= 150, "results in the journal")
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    kept = journaled()
    log.unlink()
    stdout, stderr = finish(driver(LARGER, fifteen, "--journal", str(journal)))
    assert untimed(stdout) == solve(LARGER)
    again = set(runs(log)) & kept
    assert not again, f"run again: {sorted(again)[:5]}"
    assert runs(log), "the restarted driver ran the rest"
    taken = sum(int(n) for n in re.findall(r"(\d+) from the journal", stderr))
    assert taken == len(kept), stderr


def as_a_user(*args, env=None):
    """Runs the driver as a user does (`python -m fifteen_dask`), from `dask/`."""
    return subprocess.run(
        [sys.executable, "-m", "fifteen_dask", *args],
        cwd=DASK,
        capture_output=True,
        text=True,
        env=env,
    )


def test_a_missing_package_or_binary_is_one_line():
    """Without Dask's distributed, or without fifteen on the PATH, the driver says what to
    install or give in one line, status 2 (issue 41: it was a traceback)."""
    hidden = (
        "import sys, runpy; sys.modules['distributed'] = None; "
        "sys.argv = ['fifteen_dask', 'solve', 'd68cfe0ab7459132', '--local', '1']; "
        "runpy.run_module('fifteen_dask', run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", hidden], cwd=DASK, capture_output=True, text=True
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("fifteen_dask needs the Python package distributed:")
    assert len(done.stderr.splitlines()) == 1, done.stderr
    env = dict(os.environ, PATH="/usr/bin:/bin")
    done = as_a_user("solve", "d68cfe0ab7459132", "--local", "1", env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("no fifteen on the PATH: give --fifteen"), done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
