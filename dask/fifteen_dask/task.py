"""What a Dask worker runs: one item of a plan, by the `fifteen` binary of the worker.

This module is sent to the workers by value (cloudpickle), so they need the binary and its
tables, not this package."""

import os
import subprocess
import tempfile


def run_item(fifteen, plan_text, plan_id, item, tables):
    """Searches item `item` of the plan `plan_text` (whose id is `plan_id`) with `fifteen
    shard run`; returns the result file's text. A refusal (another version, other tables) is
    an error naming the worker's one-line message."""
    folder = os.path.join(tempfile.gettempdir(), f"fifteen-dask-{os.getuid()}")
    os.makedirs(folder, exist_ok=True)
    plan = os.path.join(folder, f"{plan_id}.plan.json")
    if not os.path.exists(plan):
        # Another task of this machine may write it at the same moment: write and rename.
        temporary = f"{plan}.{os.getpid()}.tmp"
        with open(temporary, "w") as file:
            file.write(plan_text)
        os.replace(temporary, plan)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        out = os.path.join(scratch, "result.json")
        command = [fifteen, "shard", "run", plan, "--item", str(item), "--out", out]
        if tables:
            command += ["--tables", tables]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
            raise RuntimeError(f"fifteen shard run, item {item}: {lines[-1]}")
        with open(out) as file:
            return file.read()
