"""Run one torch_xla oracle case in the oracle venv and print what the lazy graph did.

Usage: ``python harness.py CASEFILE`` with ``PJRT_DEVICE=CPU`` and ``XLALENS_ORACLE_STEPS=N``
(and ``CPU_NUM_DEVICES=N`` for SPMD cases).

The case runs as ``__main__``. If it raises, one line ``XLALENS-TX-ORACLE {...}`` reports the
exception's class name (``raised``) and message, and nothing else. Otherwise any graph still
pending is synced, the device is waited for (executions are asynchronous: counts read earlier leak
into later reads), and the line reports ``raised: null`` and the metrics: ``ExecuteTime`` and
``TransferFromDeviceTime`` sample counts, the ``UncachedCompile`` counter, the largest
``TensorsGraphSize`` sample, the CPU fallback ops, ``busy_s``, the seconds during which some
graph was executing (the union of the ``ExecuteTime`` samples, each ending at its timestamp: a
graph dispatched while another runs counts its wait in its own sample, so a plain sum counts the
same seconds several times), how many optimizer steps ran and how many of them found no gradient
on any parameter the optimizer holds (torch's optimizers skip a parameter whose ``.grad`` is None,
so such a step changes no weight), and how every file the case wrote loads in a fresh process of
the same Python that never imports torch_xla (as on a machine without it). With
``XLALENS_ORACLE_TIMED=name`` (a module-level name of the case, or a dotted path from one:
``trainer.step_times``) it also reports ``timed_s``, the seconds the case measured itself: that
value, or the sum of a list of them. The case runs in an empty temporary directory, so the files it
writes to relative paths are the ones checked. This file runs under the oracle venv's Python, never
under the test runner's, and never with ``python -O``: torch_xla's SPMD checks are ``assert``
statements.
"""

from __future__ import annotations

import json
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

RESULT_PREFIX = "XLALENS-TX-ORACLE "


def _samples(met: object, name: str) -> int:
    data = met.metric_data(name)  # type: ignore[attr-defined]
    return 0 if data is None else int(data[0])


def _busy_seconds(met: object) -> float:
    """The length of the union of the executions' ``[end - duration, end]`` intervals."""
    data = met.metric_data("ExecuteTime")  # type: ignore[attr-defined]
    intervals = sorted((end - duration / 1e9, end) for end, duration in (data[2] if data else ()))
    total, reached = 0.0, float("-inf")
    for start, end in intervals:
        if end > reached:
            total += end - max(start, reached)
            reached = end
    return total


def _timed(namespace: dict[str, object], path: str) -> float:
    """The seconds the case stored under ``path``: one number, or the sum of a list of them."""
    head, *rest = path.split(".")
    value = namespace[head]
    for name in rest:
        value = getattr(value, name)
    if isinstance(value, list | tuple):
        return float(sum(value))
    return float(value)  # type: ignore[arg-type]


_LOAD_WITHOUT_TORCH_XLA = """
import sys, torch
try:
    torch.load(sys.argv[1])
except Exception as error:
    print(f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
else:
    print("ok")
assert "torch_xla" not in sys.modules
"""


def _load_without_torch_xla(path: Path) -> str:
    """``ok``, or ``ErrorClass: first line of the message``, for ``torch.load(path)`` without torch_xla."""
    proc = subprocess.run(
        [sys.executable, "-c", _LOAD_WITHOUT_TORCH_XLA, str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, "TORCH_DEVICE_BACKEND_AUTOLOAD": "0"},
        check=False,
    )
    if proc.returncode != 0:
        return f"harness error: {proc.stderr.strip()[-300:]}"
    return proc.stdout.strip().splitlines()[-1]


class _OptimizerSteps:
    """Counts optimizer steps, and those in which no parameter of the optimizer had a gradient."""

    def __init__(self) -> None:
        self.steps = 0
        self.idle = 0

    def __call__(self, optimizer: object, args: object, kwargs: object) -> None:
        self.steps += 1
        groups = optimizer.param_groups  # type: ignore[attr-defined]
        if not any(p.grad is not None for group in groups for p in group["params"]):
            self.idle += 1


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python harness.py CASEFILE", file=sys.stderr)
        return 2
    if sys.flags.optimize:
        print("harness.py must not run with -O: torch_xla's SPMD checks are asserts", file=sys.stderr)
        return 2
    case = str(Path(argv[1]).resolve())
    sys.argv = [case]
    from torch.optim.optimizer import register_optimizer_step_pre_hook

    steps = _OptimizerSteps()
    register_optimizer_step_pre_hook(steps)
    started_in = os.getcwd()
    workdir = Path(tempfile.mkdtemp(prefix="xlalens-tx-oracle-"))
    os.chdir(workdir)
    try:
        # Kept until the final sync, so that a graph pending on the case's module-level tensors runs.
        namespace = runpy.run_path(case, run_name="__main__")
    except Exception as error:  # the case's own error is the result
        print(RESULT_PREFIX + json.dumps({"raised": type(error).__name__, "message": str(error)}), flush=True)
        shutil.rmtree(workdir, ignore_errors=True)
        return 0
    finally:
        os.chdir(started_in)
    import torch_xla
    import torch_xla.core.xla_model as xm
    import torch_xla.debug.metrics as met

    torch_xla.sync()
    xm.wait_device_ops()
    sizes = met.metric_data("TensorsGraphSize")
    result: dict[str, object] = {
        "raised": None,
        "executions": _samples(met, "ExecuteTime"),
        "transfers": _samples(met, "TransferFromDeviceTime"),
        "compiles": int(met.counter_value("UncachedCompile") or 0),
        "graph_size": max((int(value) for _, value in sizes[2]), default=0) if sizes else 0,
        "fallbacks": sorted(met.executed_fallback_ops()),
        "busy_s": _busy_seconds(met),
        "optimizer_steps": steps.steps,
        "idle_optimizer_steps": steps.idle,
    }
    timed = os.environ.get("XLALENS_ORACLE_TIMED")
    if timed:
        result["timed_s"] = _timed(namespace, timed)
    del namespace
    written = sorted(p for p in workdir.rglob("*") if p.is_file())
    checkpoints = {str(p.relative_to(workdir)): _load_without_torch_xla(p) for p in written}
    result["checkpoints"] = checkpoints
    shutil.rmtree(workdir, ignore_errors=True)
    for name, outcome in checkpoints.items():
        print(f"torch.load({name!r}) without torch_xla: {outcome}", flush=True)
    print(RESULT_PREFIX + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
