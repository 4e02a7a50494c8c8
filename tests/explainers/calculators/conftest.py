"""Helpers shared by the calculator tests: running a script under real JAX in a subprocess.

JAX reads ``JAX_PLATFORMS`` and ``XLA_FLAGS`` once, at import, so each oracle runs in a fresh
interpreter with the environment set first. A test module batches all its cases into one script
that reads them as JSON on stdin and prints one JSON line with the answers.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

TIMEOUT_S = 240

RunJax = Callable[..., Any]


@pytest.fixture(scope="session")
def run_jax() -> RunJax:
    """``run_jax(script, payload, devices=1)``: the JSON the script prints last, or the test fails."""
    if importlib.util.find_spec("jax") is None:
        pytest.skip("jax is not installed")

    def run(script: str, payload: object, devices: int = 1) -> Any:
        env = dict(os.environ)
        env["JAX_PLATFORMS"] = "cpu"
        env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={devices}"
        env["PYTHONHASHSEED"] = "0"
        proc = subprocess.run(
            [sys.executable, "-c", script],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            env=env,
            timeout=TIMEOUT_S,
            check=False,
        )
        assert proc.returncode == 0, f"the JAX oracle failed:\n{proc.stderr[-4000:]}"
        return json.loads(proc.stdout.strip().splitlines()[-1])

    return run
