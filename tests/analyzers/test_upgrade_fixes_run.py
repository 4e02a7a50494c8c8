"""The upgrade rules' fixes give programs that run, and compute what the new spelling computes.

For each rule with a fix, a small program written with the old spellings is fixed by
``fix_source`` (with unsafe fixes where the rule's fix is unsafe), and then run under the installed
JAX next to the same program written by hand with the new spellings: the old program must fail (or
warn), the fixed one must run without a deprecation warning and print exactly what the new one
prints. All programs run in one subprocess (JAX starts once), each as its own ``__main__``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from xlalens.analyzers.api import check_source, fix_source


@dataclass(frozen=True)
class Program:
    """An old-spelling program, the codes its fix must come from, and the hand-written new one."""

    name: str
    old: str
    new: str
    codes: frozenset[str]
    unsafe: bool = False


def _program(name: str, codes: str, old: str, new: str, *, unsafe: bool = False) -> Program:
    return Program(name, textwrap.dedent(old), textwrap.dedent(new), frozenset(codes.split(",")), unsafe)


PROGRAMS = [
    _program(
        "tree-aliases",
        "JX701",
        """\
        import jax
        import jax as j
        import jax.numpy as jnp
        from jax import tree_leaves, tree_map

        params = {"w": jnp.arange(3.0), "b": jnp.ones(2)}
        doubled = jax.tree_map(lambda p: 2 * p, params)
        flat, treedef = j.tree_flatten(doubled)
        print(sum(float(leaf.sum()) for leaf in tree_leaves(jax.tree_unflatten(treedef, flat))))
        print(tree_map(lambda p: p.shape, params))
        """,
        """\
        import jax
        import jax.numpy as jnp

        params = {"w": jnp.arange(3.0), "b": jnp.ones(2)}
        doubled = jax.tree.map(lambda p: 2 * p, params)
        flat, treedef = jax.tree.flatten(doubled)
        print(sum(float(leaf.sum()) for leaf in jax.tree.leaves(jax.tree.unflatten(treedef, flat))))
        print(jax.tree.map(lambda p: p.shape, params))
        """,
    ),
    _program(
        "pjit",
        "JX702",
        """\
        import jax
        import jax.numpy as jnp
        from jax.experimental.pjit import pjit, with_sharding_constraint
        from jax.sharding import NamedSharding, PartitionSpec as P

        mesh = jax.make_mesh((8,), ("x",), axis_types=(jax.sharding.AxisType.Auto,))
        s = NamedSharding(mesh, P("x"))
        step = pjit(lambda a: with_sharding_constraint(a * 2, s), s, s)
        y = step(jnp.arange(16.0))
        print(float(y.sum()), y.sharding == s)
        """,
        """\
        import jax
        import jax.numpy as jnp
        from jax.sharding import NamedSharding, PartitionSpec as P

        mesh = jax.make_mesh((8,), ("x",), axis_types=(jax.sharding.AxisType.Auto,))
        s = NamedSharding(mesh, P("x"))
        step = jax.jit(lambda a: jax.lax.with_sharding_constraint(a * 2, s), in_shardings=s, out_shardings=s)
        y = step(jnp.arange(16.0))
        print(float(y.sum()), y.sharding == s)
        """,
    ),
    _program(
        "xla-computation",
        "JX703",
        """\
        import jax
        import jax.numpy as jnp

        hlo = jax.xla_computation(jnp.sin)(jnp.ones(3)).as_hlo_text()
        print("sine" in hlo, "f32[3]" in hlo)
        """,
        """\
        import jax
        import jax.numpy as jnp

        hlo = jax.jit(jnp.sin).lower(jnp.ones(3)).compiler_ir("hlo").as_hlo_text()
        print("sine" in hlo, "f32[3]" in hlo)
        """,
        unsafe=True,
    ),
    _program(
        "array-device-methods",
        "JX706",
        """\
        import jax.numpy as jnp

        x = jnp.arange(4.0)
        print(x.device())
        print(x.device_buffer.shape, [b.shape for b in x.device_buffers])
        """,
        """\
        import jax.numpy as jnp

        x = jnp.arange(4.0)
        print(x.device)
        print(x.addressable_data(0).shape, [b.shape for b in [shard.data for shard in x.addressable_shards]])
        """,
    ),
    _program(
        "clip-keywords",
        "JX707",
        """\
        import jax.numpy as jnp

        x = jnp.linspace(-2.0, 2.0, 5)
        print(jnp.clip(x, a_min=-1.0, a_max=1.0).tolist(), jnp.clip(a=x, a_max=0.0).tolist())
        """,
        """\
        import jax.numpy as jnp

        x = jnp.linspace(-2.0, 2.0, 5)
        print(jnp.clip(x, min=-1.0, max=1.0).tolist(), jnp.clip(x, max=0.0).tolist())
        """,
    ),
    _program(
        "jit-options",
        "JX708",
        """\
        import jax
        import jax.numpy as jnp

        def scale(x, n):
            return x * n

        print(jax.jit(scale, (1,))(jnp.ones(2), 3).tolist(), jax.jit(fun=jnp.sin)(0.0))
        """,
        """\
        import jax
        import jax.numpy as jnp

        def scale(x, n):
            return x * n

        print(jax.jit(scale, static_argnums=(1,))(jnp.ones(2), 3).tolist(), jax.jit(jnp.sin)(0.0))
        """,
        unsafe=True,
    ),
    _program(
        "mesh-context",
        "JX709",
        """\
        import jax
        import jax.numpy as jnp
        from jax.sharding import PartitionSpec as P

        mesh = jax.make_mesh((8,), ("x",), axis_types=(jax.sharding.AxisType.Auto,))
        with mesh:
            y = jax.jit(lambda a: a + 1, out_shardings=P("x"))(jnp.zeros(8))
        with jax.sharding.use_mesh(mesh):
            z = jax.jit(lambda a: a * 2, out_shardings=P("x"))(y)
        print(z.tolist(), z.sharding.spec)
        """,
        """\
        import jax
        import jax.numpy as jnp
        from jax.sharding import PartitionSpec as P

        mesh = jax.make_mesh((8,), ("x",), axis_types=(jax.sharding.AxisType.Auto,))
        with jax.set_mesh(mesh):
            y = jax.jit(lambda a: a + 1, out_shardings=P("x"))(jnp.zeros(8))
        with jax.set_mesh(mesh):
            z = jax.jit(lambda a: a * 2, out_shardings=P("x"))(y)
        print(z.tolist(), z.sharding.spec)
        """,
        unsafe=True,
    ),
    _program(
        "checkpoint-aliases",
        "JX711",
        """\
        import jax
        import jax.numpy as jnp
        from jax.ad_checkpoint import checkpoint

        block = checkpoint(lambda x: jnp.sin(jnp.sin(x)))
        print(jax.grad(lambda x: block(x).sum())(jnp.arange(3.0)).tolist())
        """,
        """\
        import jax
        import jax.numpy as jnp

        block = jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)))
        print(jax.grad(lambda x: block(x).sum())(jnp.arange(3.0)).tolist())
        """,
    ),
    _program(
        "jax-core",
        "JX712",
        """\
        import jax
        import jax.numpy as jnp
        from jax import core

        double_p = core.Primitive("double")
        double_p.def_impl(lambda x: x * 2)
        print(double_p.bind(jnp.arange(3.0)).tolist(), jax.core.get_aval(jnp.ones((2, 3))))
        """,
        """\
        import jax
        import jax.extend.core
        import jax.numpy as jnp

        double_p = jax.extend.core.Primitive("double")
        double_p.def_impl(lambda x: x * 2)
        print(double_p.bind(jnp.arange(3.0)).tolist(), jax.typeof(jnp.ones((2, 3))))
        """,
        unsafe=True,
    ),
    _program(
        "pvary",
        "JX713",
        """\
        import jax
        import jax.numpy as jnp
        from jax import lax
        from jax.sharding import PartitionSpec as P

        mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))
        out = jax.shard_map(lambda x: lax.pvary(x, "i") * 2, mesh=mesh, in_specs=P(), out_specs=P("i"))(jnp.ones(1))
        print(out.tolist())
        """,
        """\
        import jax
        import jax.numpy as jnp
        from jax import lax
        from jax.sharding import PartitionSpec as P

        mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))
        out = jax.shard_map(lambda x: lax.pcast(x, "i", to="varying") * 2, mesh=mesh, in_specs=P(), out_specs=P("i"))(
            jnp.ones(1)
        )
        print(out.tolist())
        """,
    ),
    _program(
        "numpy-aliases",
        "JX714",
        """\
        import jax
        import jax.numpy as jnp
        from jax.numpy import fix

        x = jnp.array([[-1.5, 0.5], [2.5, -0.4]])
        print(fix(x).tolist(), jnp.round_(x).tolist(), float(jnp.product(x)), bool(jnp.alltrue(x > -2)))
        print(jnp.where(x > 0, x, jnp.NINF).tolist(), jnp.in1d(x, jnp.array([0.5, 2.5])).tolist())
        print(jnp.row_stack([x, x]).shape, float(jnp.trapz(x[0])), jnp.cumproduct(x).tolist())
        print(float(jnp.NZERO))
        """,
        """\
        import jax
        import jax.numpy as jnp

        x = jnp.array([[-1.5, 0.5], [2.5, -0.4]])
        print(jnp.trunc(x).tolist(), jnp.round(x).tolist(), float(jnp.prod(x)), bool(jnp.all(x > -2)))
        print(jnp.where(x > 0, x, -jnp.inf).tolist(), jnp.isin(x, jnp.array([0.5, 2.5])).ravel().tolist())
        print(jnp.vstack([x, x]).shape, float(jax.scipy.integrate.trapezoid(x[0])), jnp.cumprod(x).tolist())
        print(float(-0.0))
        """,
    ),
    _program(
        "index-update",
        "JX715",
        """\
        import jax
        import jax.numpy as jnp
        from jax import ops

        x = jnp.zeros(5)
        y = jax.ops.index_update(x, jax.ops.index[1:3], 7.0)
        z = ops.index_add(y + 1, 0, 2.0)
        print(y.tolist(), z.tolist(), jax.ops.index_max(z, jnp.array([0, 4]), 5.0).tolist())
        """,
        """\
        import jax
        import jax.numpy as jnp

        x = jnp.zeros(5)
        y = x.at[1:3].set(7.0)
        z = (y + 1).at[0].add(2.0)
        print(y.tolist(), z.tolist(), z.at[jnp.array([0, 4])].max(5.0).tolist())
        """,
    ),
    _program(
        "blockspec-order",
        "JX716",
        """\
        import jax
        import jax.numpy as jnp
        from jax.experimental import pallas as pl

        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] * 2 + 1

        spec = pl.BlockSpec(lambda i: (i, 0), (8, 128))
        x = jnp.arange(16 * 128, dtype=jnp.float32).reshape(16, 128)
        y = pl.pallas_call(kernel, grid=(2,), in_specs=[spec], out_specs=spec,
                           out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
        print(float(y.sum()))
        """,
        """\
        import jax
        import jax.numpy as jnp
        from jax.experimental import pallas as pl

        def kernel(x_ref, o_ref):
            o_ref[...] = x_ref[...] * 2 + 1

        spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
        x = jnp.arange(16 * 128, dtype=jnp.float32).reshape(16, 128)
        y = pl.pallas_call(kernel, grid=(2,), in_specs=[spec], out_specs=spec,
                           out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
        print(float(y.sum()))
        """,
    ),
    _program(
        "pallas-names",
        "JX717,JX718",
        """\
        from jax.experimental import pallas as pl
        from jax.experimental.pallas import tpu as pltpu

        params = pltpu.TPUCompilerParams(dimension_semantics=("parallel",))
        spec = pl.BlockSpec(memory_space=pltpu.ANY)
        print(params.dimension_semantics, spec.memory_space, pltpu.semaphore, pltpu.DeviceIdType.MESH)
        """,
        """\
        from jax.experimental import pallas as pl
        from jax.experimental.pallas import tpu as pltpu

        params = pltpu.CompilerParams(dimension_semantics=("parallel",))
        spec = pl.BlockSpec(memory_space=pl.ANY)
        print(params.dimension_semantics, spec.memory_space, pl.semaphore, pl.DeviceIdType.MESH)
        """,
    ),
]

# Runs each program as __main__ with DeprecationWarning as an error, and records its stdout or
# the exception that ended it.
RUNNER = """
import contextlib, io, json, runpy, sys, warnings
results = {}
for name, path in json.load(open(sys.argv[1])):
    out = io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            with contextlib.redirect_stdout(out):
                runpy.run_path(path, run_name="__main__")
            results[name] = {"stdout": out.getvalue(), "raised": None}
        except BaseException as exc:
            results[name] = {"stdout": out.getvalue(), "raised": f"{type(exc).__name__}: {exc}"}
json.dump(results, open(sys.argv[2], "w"))
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    """Fix every program, then run the old, fixed and new versions in one JAX process."""
    pytest.importorskip("jax")
    folder = tmp_path_factory.mktemp("upgrade_fixes")
    jobs = []
    fixed_texts = {}
    for program in PROGRAMS:
        fixed = fix_source(program.old, f"{program.name}.py", unsafe=program.unsafe).source
        fixed_texts[program.name] = fixed
        for kind, text in (("old", program.old), ("fixed", fixed), ("new", program.new)):
            path = folder / f"{program.name}_{kind}.py"
            path.write_text(text, encoding="utf-8")
            jobs.append((f"{program.name}:{kind}", str(path)))
    (folder / "jobs.json").write_text(json.dumps(jobs), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_"))}
    env.update(JAX_PLATFORMS="cpu", XLA_FLAGS="--xla_force_host_platform_device_count=8")
    subprocess.run(
        [sys.executable, "-c", RUNNER, str(folder / "jobs.json"), str(folder / "out.json")],
        env=env,
        cwd=folder,
        check=True,
        timeout=600,
    )
    results: dict[str, dict[str, object]] = json.loads((folder / "out.json").read_text(encoding="utf-8"))
    return {**results, **{f"{name}:text": {"stdout": text} for name, text in fixed_texts.items()}}


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_the_fix_comes_from_the_rule_and_leaves_nothing_to_report(program: Program) -> None:
    before = {d.code for d in check_source(program.old, "old.py")}
    assert program.codes <= before
    result = fix_source(program.old, "old.py", unsafe=program.unsafe)
    assert {d.code for d in result.fixed} <= before and program.codes <= {d.code for d in result.fixed}
    after = {d.code for d in check_source(result.source, "fixed.py") if d.code[2] == "7"}
    assert not after, f"fixed program still has {sorted(after)}:\n{result.source}"
    assert fix_source(result.source, "fixed.py", unsafe=program.unsafe).source == result.source


@pytest.mark.oracle
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_the_fixed_program_runs_like_the_new_spelling(program: Program, runs: dict[str, dict[str, object]]) -> None:
    old, fixed, new = (runs[f"{program.name}:{kind}"] for kind in ("old", "fixed", "new"))
    text = runs[f"{program.name}:text"]["stdout"]
    assert old["raised"], f"the old spelling ran clean under this JAX:\n{program.old}"
    assert new["raised"] is None, f"the hand-written new spelling failed: {new['raised']}"
    assert fixed["raised"] is None, f"the fixed program failed: {fixed['raised']}\n{text}"
    assert fixed["stdout"] == new["stdout"] and fixed["stdout"], f"{fixed['stdout']!r} != {new['stdout']!r}\n{text}"


def test_programs_cover_every_jax_upgrade_rule_with_a_fix() -> None:
    from xlalens.analyzers.engine.registry import all_rules
    from xlalens.analyzers.engine.rule import FixAvailability

    covered = set().union(*(p.codes for p in PROGRAMS))
    display_only = {"JX704", "JX705", "JX710"}
    wanted = {
        rule.code
        for rule in all_rules()
        if rule.code.startswith("JX7") and rule.fix_availability is not FixAvailability.NONE
    } - display_only
    assert wanted <= covered, f"no run-the-fix program for {sorted(wanted - covered)}"
    assert Path(__file__).name  # the programs live here
