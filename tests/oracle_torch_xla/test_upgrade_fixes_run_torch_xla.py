"""The torch_xla upgrade rules' fixes give programs that run in the oracle venv like the new spelling.

As ``tests/analyzers/test_upgrade_fixes_run.py`` does for JAX: each old-spelling program must fail
(or warn) under torch_xla 2.9, its ``fix_source`` result must run without a deprecation warning, and
print what the hand-written new spelling prints. Each program runs in its own process of the oracle
venv's Python (``PJRT_DEVICE=CPU``): SPMD mode, once on, stays on for the process.
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from xlalens.analyzers.api import check_source, fix_source

from tests.oracle_torch_xla.test_oracle_torch_xla import TIMEOUT_S, probe_environment, require_oracle


@dataclass(frozen=True)
class Program:
    """An old-spelling program, the codes its fix comes from, and the new spelling written by hand."""

    name: str
    codes: frozenset[str]
    old: str
    new: str
    unsafe: bool = False


def _program(name: str, codes: str, old: str, new: str, *, unsafe: bool = False) -> Program:
    return Program(name, frozenset(codes.split(",")), textwrap.dedent(old), textwrap.dedent(new), unsafe)


PROGRAMS = [
    _program(
        "step-and-device",
        "TX701,TX702",
        """\
        import torch
        import torch_xla.core.xla_model as xm

        torch.manual_seed(0)
        device = xm.xla_device()
        model = torch.nn.Linear(4, 2).to(device)
        for step in range(3):
            loss = model(torch.ones(3, 4, device=device)).pow(2).sum()
            loss.backward()
            xm.mark_step()
        print(str(device), round(loss.item(), 4))
        """,
        """\
        import torch
        import torch_xla

        torch.manual_seed(0)
        device = torch_xla.device()
        model = torch.nn.Linear(4, 2).to(device)
        for step in range(3):
            loss = model(torch.ones(3, 4, device=device)).pow(2).sum()
            loss.backward()
            torch_xla.sync()
        print(str(device), round(loss.item(), 4))
        """,
    ),
    _program(
        "world-size",
        "TX703",
        """\
        import torch_xla.core.xla_model as xm
        from torch_xla.core.xla_model import get_ordinal

        print(1024 // xm.xrt_world_size(), get_ordinal())
        """,
        """\
        import torch_xla.runtime as xr

        print(1024 // xr.world_size(), xr.global_ordinal())
        """,
    ),
    _program(
        "spmd-module",
        "TX704",
        """\
        import numpy as np
        import torch
        import torch_xla
        import torch_xla.experimental.xla_sharding as xs
        import torch_xla.runtime as xr

        xr.use_spmd()
        mesh = xs.Mesh(np.arange(xr.global_runtime_device_count()), (xr.global_runtime_device_count(), 1), ("d", "m"))
        t = torch.ones(8, 4, device=torch_xla.device())
        xs.mark_sharding(t, mesh, ("d", None))
        print(mesh.shape(), float(t.sum()))
        """,
        """\
        import numpy as np
        import torch
        import torch_xla
        import torch_xla.distributed.spmd as xs
        import torch_xla.runtime as xr

        xr.use_spmd()
        mesh = xs.Mesh(np.arange(xr.global_runtime_device_count()), (xr.global_runtime_device_count(), 1), ("d", "m"))
        t = torch.ones(8, 4, device=torch_xla.device())
        xs.mark_sharding(t, mesh, ("d", None))
        print(mesh.shape(), float(t.sum()))
        """,
    ),
    _program(
        "pjrt-module",
        "TX705",
        """\
        from torch_xla.experimental import pjrt

        print(pjrt.device_type(), pjrt.world_size(), pjrt.local_ordinal())
        """,
        """\
        from torch_xla import runtime

        print(runtime.device_type(), runtime.world_size(), runtime.local_ordinal())
        """,
    ),
    _program(
        "dynamo-backend",
        "TX707",
        """\
        import torch
        import torch_xla

        torch.manual_seed(0)
        model = torch.nn.Linear(4, 4).to(torch_xla.device())
        compiled = torch.compile(model, backend="torchxla_trace_once")
        print(round(float(compiled(torch.ones(2, 4, device=torch_xla.device())).sum()), 4))
        """,
        """\
        import torch
        import torch_xla

        torch.manual_seed(0)
        model = torch.nn.Linear(4, 4).to(torch_xla.device())
        compiled = torch.compile(model, backend="openxla")
        print(round(float(compiled(torch.ones(2, 4, device=torch_xla.device())).sum()), 4))
        """,
        unsafe=True,
    ),
]

RUNNER = """
import contextlib, io, json, runpy, sys, warnings
out = io.StringIO()
with warnings.catch_warnings():
    warnings.simplefilter("error", DeprecationWarning)
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(sys.argv[1], run_name="__main__")
        result = {"stdout": out.getvalue(), "raised": None}
    except BaseException as exc:
        result = {"stdout": out.getvalue(), "raised": f"{type(exc).__name__}: {exc}"}
json.dump(result, open(sys.argv[2], "w"))
"""


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_the_fix_comes_from_the_rule_and_leaves_nothing_to_report(program: Program) -> None:
    before = {d.code for d in check_source(program.old, "old.py")}
    assert program.codes <= before
    result = fix_source(program.old, "old.py", unsafe=program.unsafe)
    assert program.codes <= {d.code for d in result.fixed}
    assert not {d.code for d in check_source(result.source, "fixed.py") if d.code[2] == "7"}, result.source


def _run(python: str, path: Path) -> dict[str, object]:
    verdict = path.with_suffix(".json")
    proc = subprocess.run(
        [python, "-c", RUNNER, str(path), str(verdict)],
        env=probe_environment(CPU_NUM_DEVICES="4"),
        cwd=path.parent,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    if not verdict.exists():
        return {"stdout": "", "raised": f"exit status {proc.returncode}: {(proc.stdout + proc.stderr)[-2000:]}"}
    return json.loads(verdict.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    python = require_oracle()
    folder = tmp_path_factory.mktemp("upgrade_fixes_torch_xla")
    paths: dict[str, Path] = {}
    for program in PROGRAMS:
        fixed = fix_source(program.old, f"{program.name}.py", unsafe=program.unsafe).source
        for kind, text in (("old", program.old), ("fixed", fixed), ("new", program.new)):
            path = folder / f"{program.name.replace('-', '_')}_{kind}.py"
            path.write_text(text, encoding="utf-8")
            paths[f"{program.name}:{kind}"] = path
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1)) as pool:
        futures = {key: pool.submit(_run, python, path) for key, path in paths.items()}
        return {key: future.result() for key, future in futures.items()}


@pytest.mark.oracle
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_the_fixed_program_runs_like_the_new_spelling(program: Program, runs: dict[str, dict[str, object]]) -> None:
    old, fixed, new = (runs[f"{program.name}:{kind}"] for kind in ("old", "fixed", "new"))
    assert old["raised"], f"the old spelling ran clean under torch_xla:\n{program.old}"
    assert new["raised"] is None, f"the hand-written new spelling failed: {new['raised']}"
    assert fixed["raised"] is None, f"the fixed program failed: {fixed['raised']}"
    assert fixed["stdout"] == new["stdout"] and fixed["stdout"], f"{fixed['stdout']!r} != {new['stdout']!r}"
