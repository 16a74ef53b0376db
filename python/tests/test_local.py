"""The driver's other ways in: the console script `fifteen-dask` with `--local N` (a local
cluster of N worker processes, the recipe for one machine), a position without solution (the
binary's line on stdout, exit status 1) and bad input (the binary's one line on stderr, exit
status 2)."""

import re
import subprocess
import sys
from pathlib import Path

from conftest import cli
from test_cluster import SMALL, untimed

SCRIPT = Path(sys.executable).parent / "fifteen-dask"


def driver(tmp_path, *args):
    return subprocess.run(
        [str(SCRIPT), "solve", *args], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )


def test_the_console_script_on_two_local_workers(tmp_path):
    done = driver(tmp_path, SMALL, "--heuristic", "manhattan", "--local", "2", "--task-nodes", "1")
    assert done.returncode == 0, done.stderr
    _, out, _ = cli("solve", SMALL, "--heuristic", "manhattan", "--threads", "1")
    assert untimed(done.stdout) == untimed(out)


def test_no_solution_and_bad_input_are_the_binarys_lines(tmp_path):
    done = driver(tmp_path, "213456780", "--local", "1")
    status, out, _ = cli("shard", "plan", "213456780", "--out", "unused.json", check=False)
    assert (done.returncode, done.stdout) == (status, out) == (1, out)
    done = driver(tmp_path, SMALL, "--heuristic", "9-9", "--local", "1")
    status, _, err = cli("shard", "plan", SMALL, "--heuristic", "9-9", "--out", "x", check=False)
    assert (done.returncode, done.stderr) == (status, err) == (2, err)
    assert len(err.splitlines()) == 1


def test_progress_on_a_terminal(tmp_path):
    """On a terminal (script(1) gives one), stderr shows each bound's tasks done and to do and
    its nodes, redrawn in place, as the binary's progress line."""
    command = f"{SCRIPT} solve {SMALL} --heuristic manhattan --local 2 --task-nodes 1"
    done = subprocess.run(
        ["script", "-qefc", command, "/dev/null"],
        cwd=tmp_path,
        capture_output=True,
        timeout=300,
    )
    # Bytes: text mode would read each carriage return as a line end.
    screen = done.stdout.decode()
    assert done.returncode == 0, screen
    frames = [f for f in screen.split("\r") if f.startswith("\x1b[Ksearching 33+5: ")]
    assert len(frames) > 1, screen
    pattern = r"\x1b\[Ksearching 33\+5: \d+ s, (\d+)/(\d+) tasks done, (\d+) nodes"
    counts = [re.fullmatch(pattern, frame.split("\n")[0]) for frame in frames]
    assert all(counts), frames
    done, nodes = [int(c[1]) for c in counts], [int(c[3]) for c in counts]
    # Redrawn as tasks finish, one more each time, up to at most all of them.
    assert done == list(range(1, len(done) + 1)) and done[-1] <= int(counts[0][2])
    assert nodes == sorted(nodes) and nodes[-1] > 0
