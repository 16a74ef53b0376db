"""What a Dask worker runs: a batch of items of a plan, by the `fifteen` binary of the worker.

This module is sent to the workers by value (cloudpickle), so they need the binary and its
tables, not this package."""

import os
import subprocess
import tempfile


def run_items(fifteen, plan_text, plan_id, items, tables):
    """Searches the items `items` of the plan `plan_text` (whose id is `plan_id`) in one
    `fifteen shard run`, which searches nothing after an item with a solution; returns each
    item's result text by item. A refusal (another version, other tables) is an error naming
    the worker's one-line message."""
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
        listed = ",".join(str(i) for i in items)
        command = [fifteen, "shard", "run", plan, "--item", listed, "--out-dir", scratch]
        if tables:
            command += ["--tables", tables]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
            raise RuntimeError(f"fifteen shard run, items {listed}: {lines[-1]}")
        texts = {}
        for i in items:
            path = os.path.join(scratch, f"{i}.json")
            if os.path.exists(path):
                with open(path) as file:
                    texts[i] = file.read()
        return texts
