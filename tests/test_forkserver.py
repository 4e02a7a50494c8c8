"""The oracle fork server: each case runs in its own child, and nothing one case does reaches the next."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import forkserver

HARNESS = """
import os, runpy, sys

def main(argv):
    print("harness sees", os.environ.get("CASE_SETTING"), os.getcwd(), flush=True)
    runpy.run_path(argv[1], run_name="__main__")
    return 0
"""


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[forkserver.ForkServerPool]:
    harness = tmp_path / "harness.py"
    harness.write_text(HARNESS, encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "CASE_SETTING": "server"}
    pool = forkserver.ForkServerPool(1, sys.executable, harness, ("json",), env, tmp_path)
    yield pool
    pool.close()


def _case(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


def test_a_case_sees_its_settings_and_its_directory(servers: forkserver.ForkServerPool, tmp_path: Path) -> None:
    case = _case(tmp_path, "case.py", "import sys; print('out'); print('err', file=sys.stderr)")
    workdir = tmp_path / "work"
    workdir.mkdir()
    finished = servers.run(case, {"CASE_SETTING": "case"}, workdir, 30)
    assert finished.returncode == 0
    assert f"harness sees case {workdir}" in finished.stdout
    assert "out" in finished.stdout and "err" in finished.stderr


def test_state_a_case_changes_does_not_reach_the_next(servers: forkserver.ForkServerPool, tmp_path: Path) -> None:
    writer = _case(tmp_path, "writer.py", "import json, os; json.LEAKED = 1; os.environ['LEAK'] = '1'")
    reader = _case(
        tmp_path,
        "reader.py",
        "import json, os; print('module', hasattr(json, 'LEAKED'), 'env', os.environ.get('LEAK'))",
    )
    assert servers.run(writer, {"CASE_SETTING": None}, tmp_path, 30).returncode == 0
    finished = servers.run(reader, {}, tmp_path, 30)
    assert "module False env None" in finished.stdout
    assert "harness sees server" in finished.stdout


def test_exit_status_crash_and_timeout_are_reported_and_the_server_goes_on(
    servers: forkserver.ForkServerPool, tmp_path: Path
) -> None:
    exits = _case(tmp_path, "exits.py", "import sys; sys.exit(3)")
    crashes = _case(tmp_path, "crashes.py", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
    hangs = _case(tmp_path, "hangs.py", "import time; time.sleep(60)")
    assert servers.run(exits, {}, tmp_path, 30).returncode == 3
    assert servers.run(crashes, {}, tmp_path, 30).returncode == -signal.SIGSEGV
    timed_out = servers.run(hangs, {}, tmp_path, 1)
    assert timed_out.returncode == -signal.SIGALRM and "timed out after 1 s" in timed_out.stderr
    assert servers.run(exits, {}, tmp_path, 30).returncode == 3


def test_a_server_that_cannot_start_says_why(tmp_path: Path) -> None:
    harness = tmp_path / "harness.py"
    harness.write_text(HARNESS, encoding="utf-8")
    pool = forkserver.ForkServerPool(1, sys.executable, harness, ("no_such_module_xlalens",), {}, tmp_path)
    with pytest.raises(RuntimeError, match="no_such_module_xlalens"):
        pool.run(_case(tmp_path, "case.py", "pass"), {}, tmp_path, 30)
    pool.close()


@pytest.mark.parametrize(
    ("source", "fresh"),
    [
        ('STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])', False),
        ('STEPS = int(os.environ.get("XLALENS_ORACLE_STEPS", "2"))', False),
        ('os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"', True),
        ('os.environ.update(XLA_USE_BF16="1")', True),
        ("from os import environ", True),
        ("import jax", False),
    ],
)
def test_cases_that_write_the_environment_run_fresh(source: str, fresh: bool) -> None:
    assert forkserver.needs_fresh_process(source) is fresh
