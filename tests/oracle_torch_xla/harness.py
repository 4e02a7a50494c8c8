"""Run one torch_xla oracle case in the oracle venv and print what the lazy graph did.

Usage: ``python harness.py CASEFILE`` with ``PJRT_DEVICE=CPU`` and ``XLALENS_ORACLE_STEPS=N``
(and ``CPU_NUM_DEVICES=N`` for SPMD cases).

The case runs as ``__main__``. If it raises, one line ``XLALENS-TX-ORACLE {...}`` reports the
exception's class name (``raised``) and message, and nothing else. Otherwise any graph still
pending is synced, the device is waited for (executions are asynchronous: counts read earlier leak
into later reads), and the line reports ``raised: null`` and the metrics: ``ExecuteTime`` and
``TransferFromDeviceTime`` sample counts, the ``UncachedCompile`` counter, the largest
``TensorsGraphSize`` sample, and the CPU fallback ops. This file runs under the oracle venv's
Python, never under the test runner's, and never with ``python -O``: torch_xla's SPMD checks are
``assert`` statements.
"""

from __future__ import annotations

import json
import runpy
import sys

RESULT_PREFIX = "XLALENS-TX-ORACLE "


def _samples(met: object, name: str) -> int:
    data = met.metric_data(name)  # type: ignore[attr-defined]
    return 0 if data is None else int(data[0])


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python harness.py CASEFILE", file=sys.stderr)
        return 2
    if sys.flags.optimize:
        print("harness.py must not run with -O: torch_xla's SPMD checks are asserts", file=sys.stderr)
        return 2
    sys.argv = [argv[1]]
    try:
        runpy.run_path(argv[1], run_name="__main__")
    except Exception as error:  # the case's own error is the result
        print(RESULT_PREFIX + json.dumps({"raised": type(error).__name__, "message": str(error)}), flush=True)
        return 0
    import torch_xla
    import torch_xla.core.xla_model as xm
    import torch_xla.debug.metrics as met

    torch_xla.sync()
    xm.wait_device_ops()
    sizes = met.metric_data("TensorsGraphSize")
    result = {
        "raised": None,
        "executions": _samples(met, "ExecuteTime"),
        "transfers": _samples(met, "TransferFromDeviceTime"),
        "compiles": int(met.counter_value("UncachedCompile") or 0),
        "graph_size": max((int(value) for _, value in sizes[2]), default=0) if sizes else 0,
        "fallbacks": sorted(met.executed_fallback_ops()),
    }
    print(RESULT_PREFIX + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
