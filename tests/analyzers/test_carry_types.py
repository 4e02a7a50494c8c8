"""Carry types inferred from the source agree with the types JAX computes for the same code."""

from __future__ import annotations

import ast

import pytest
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.models.extensions import module_interpreter
from xlalens.analyzers.models.tracing.carry_types import BodyTypes, Leaf, from_value
from xlalens.analyzers.semantics.names import ModuleIndex

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

INITS = [
    "jnp.array(0.5)",
    "jnp.asarray(1)",
    "jnp.array([1.0, 2.0])",
    "jnp.full(3, 1.0)",
    "jnp.arange(3.0)",
    "jnp.array(True)",
    "jnp.eye(2)",
    "jnp.full((2,), 2, dtype=jnp.int8)",
    "jnp.array(1, dtype=jnp.float16)",
    "jnp.int32(1)",
    "jnp.bfloat16(jnp.ones((2, 3)))",
]
"""Initial values, typed by the general interpreter."""

BODIES = [
    "c * 0.5",
    "c / 2",
    "c.astype(jnp.bfloat16) + 1",
    "jnp.where(c > 1, c, 0.5)",
    "jnp.concatenate([c, c], axis=1)",
    "jnp.stack([c, c])",
    "c.sum()",
    "c.mean(axis=0)",
    "jnp.max(c, axis=-1)",
    "c.reshape(-1)",
    "c.T",
    "c[0]",
    "c.at[0].set(2)",
    "jnp.exp(c)",
    "jnp.maximum(c, jnp.float16(1))",
    "jnp.zeros_like(c, dtype=jnp.int8)",
    "jnp.full((2,), c[0][0])",
    "c + jnp.arange(3)",
    "-c * jnp.int32(2)",
    "jnp.float16(c) - 1.5",
    "c @ jnp.ones((3, 4))",
    "c @ jnp.ones(3, dtype=jnp.bfloat16)",
    "jnp.argmax(c, axis=-1)",
    "(c > 0).mean()",
    "(c > 0).sum(axis=0)",
    "c.sum(axis=1, keepdims=True)",
    "c[:, None]",
    "c[..., -1]",
    "c[jnp.arange(2)]",
    "c[1:, ::2]",
    "c[:, jnp.arange(2)]",
    "jnp.broadcast_to(c[0], c.shape)",
    "jnp.stack([c, c], axis=-1)",
    "jnp.concatenate([c, c[:1]], axis=0)",
]
"""Body expressions over a strongly typed ``float32[2,3]`` carry ``c``."""


def _context(source: str) -> tuple[CheckContext, ast.Module]:
    tree = ast.parse(source)
    index = ModuleIndex(tree, {ast.Call})
    interpreter = module_interpreter(index)
    return CheckContext(SourceText(source), "x.py", Settings(), index, interpreter.traced, interpreter), tree


@pytest.mark.parametrize("expr", INITS)
def test_initial_values_match_jax(expr: str) -> None:
    ctx, tree = _context(f"import jax.numpy as jnp\nv = {expr}\n")
    statement = tree.body[1]
    assert isinstance(statement, ast.Assign)
    leaf = from_value(ctx.interpreter.value_of(statement.value, ctx.index.module_scope))
    real = eval(expr, {"jnp": jnp})
    assert isinstance(leaf, Leaf)
    assert (leaf.dtype, leaf.shape, leaf.weak) == (str(real.dtype), real.shape, real.weak_type)


@pytest.mark.parametrize("expr", BODIES)
def test_body_outputs_match_jax(expr: str) -> None:
    ctx, tree = _context(f"import jax.numpy as jnp\nbody = lambda c: {expr}\n")
    statement = tree.body[1]
    assert isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Lambda)
    out = BodyTypes(ctx).call(statement.value, [Leaf((2, 3), "float32")])
    real = jax.eval_shape(eval(f"lambda c: {expr}", {"jnp": jnp}), jax.ShapeDtypeStruct((2, 3), jnp.float32))
    assert isinstance(out, Leaf)
    assert (out.dtype, out.shape, out.weak) == (str(real.dtype), real.shape, real.weak_type)
