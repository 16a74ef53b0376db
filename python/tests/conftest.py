"""What the package's tests share: the `fifteen` binary the package is checked against, and a
table directory of the test's own (never the user's cache)."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIFTEEN = Path(os.environ.get("FIFTEEN", ROOT / "target/x86_64-unknown-linux-gnu/release/fifteen"))


@pytest.fixture(scope="session")
def tables(tmp_path_factory):
    """A table directory for the session: the tables the tests use are built there once, by
    the binary."""
    assert FIFTEEN.exists(), f"{FIFTEEN} is missing: cargo build --release (or FIFTEEN=PATH)"
    folder = tmp_path_factory.mktemp("tables")
    for size, heuristic in [("3x3", "8"), ("3x4", "6-5"), ("4x4", "5-5-5")]:
        cli("tables", "build", "--size", size, "--heuristic", heuristic, "--tables", str(folder))
    return folder


@pytest.fixture(autouse=True)
def no_user_tables(tmp_path, monkeypatch):
    """Tables a test does not name are kept in its own folder."""
    monkeypatch.setenv("FIFTEEN_TABLES", str(tmp_path / "default-tables"))


def cli(*args, check=True):
    """`fifteen ARGS`: (exit status, stdout, stderr)."""
    done = subprocess.run([str(FIFTEEN), *args], capture_output=True, text=True)
    if check:
        assert done.returncode == 0, done.stderr
    return done.returncode, done.stdout, done.stderr
