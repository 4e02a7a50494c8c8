"""The sharding model: where specs meet meshes and arrays, and the JX501-JX505 findings built on it."""

from __future__ import annotations

import ast
import textwrap

import pytest
from xlalens.analyzers.api import check_source
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.models.extensions import module_interpreter
from xlalens.analyzers.models.sharding.model import ShardingModel, sharding_model
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.explainers.calculators.shard_shape import CALCULATOR

HEADER = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import mesh_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
auto = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
"""


def model_of(body: str) -> ShardingModel:
    index = ModuleIndex(ast.parse(HEADER + textwrap.dedent(body)), [ast.Call])
    return sharding_model(index, module_interpreter(index))


def findings(body: str, device_count: int | None = None) -> list[tuple[int, str]]:
    text = HEADER + textwrap.dedent(body)
    settings = Settings(select=("JX5",), device_count=device_count)
    offset = HEADER.count("\n")
    return [(d.line - offset, d.code) for d in check_source(text, "case.py", settings)]


def test_named_sharding_is_a_spec_on_its_mesh() -> None:
    model = model_of('s = NamedSharding(auto, P("x", None))\n')
    [uses] = model.specs.values()
    assert [(u.api, u.mesh.describe(), u.spec.describe(), u.context) for u in uses] == [
        ("NamedSharding", "Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto))", "P('x', None)", None)
    ]


def test_bare_spec_takes_the_mesh_of_set_mesh_but_not_inside_functions() -> None:
    model = model_of(
        """
        x = jnp.ones((8, 4))
        with jax.set_mesh(mesh):
            jax.device_put(x, P("x"))

            def later(y):
                return jax.device_put(y, P("x"))
        """
    )
    assert [u.api for uses in model.specs.values() for u in uses] == ["device_put"]
    assert [(p.api, p.array.shape) for p in model.all_placements()] == [("device_put", (8, 4))]


def test_module_level_set_mesh_applies_to_the_statements_after_it() -> None:
    model = model_of(
        """
        jax.device_put(jnp.ones((8, 4)), P("x"))
        jax.set_mesh(mesh)
        jax.device_put(jnp.ones((8, 4)), P("y"))
        """
    )
    assert [p.spec.describe() for p in model.all_placements()] == ["P('y')"]


def test_legacy_mesh_context_resolves_only_with_sharding_constraint() -> None:
    model = model_of(
        """
        with auto:
            jax.device_put(jnp.ones((8, 4)), P("x"))
            jax.lax.with_sharding_constraint(jnp.ones((8, 4)), P("x"))
        """
    )
    assert [p.api for p in model.all_placements()] == ["with_sharding_constraint"]


@pytest.mark.parametrize(
    ("body", "rank", "divisibility"),
    [
        ('jax.device_put(jnp.ones((6, 4)), NamedSharding(mesh, P("x")))', True, True),
        ('jax.lax.with_sharding_constraint(jnp.ones((6, 4)), NamedSharding(auto, P("x")))', True, True),
        # An Explicit mesh fails with_sharding_constraint for its axis type before the shape.
        ('jax.lax.with_sharding_constraint(jnp.ones((6, 4)), NamedSharding(mesh, P("x")))', True, False),
        # reshard accepts only Explicit axes.
        ('jax.reshard(jnp.ones((6, 4)), NamedSharding(auto, P("x")))', False, False),
        ('jax.reshard(jnp.ones((6, 4)), NamedSharding(mesh, P("x")))', True, True),
    ],
)
def test_what_jax_checks_at_each_api(body: str, rank: bool, divisibility: bool) -> None:
    [placement] = model_of(body + "\n").all_placements()
    assert (placement.checks_rank, placement.checks_divisibility) == (rank, divisibility)


def test_with_sharding_constraint_under_a_trace_may_split_unevenly() -> None:
    body = """
    @jax.jit
    def f(a):
        return jax.lax.with_sharding_constraint(jnp.ones((6, 4)) * a, NamedSharding(auto, P("x")))
    """
    [placement] = model_of(body).all_placements()
    assert placement.checks_divisibility is False
    assert findings(body) == []


def test_jit_in_shardings_pair_with_the_arguments_of_each_call() -> None:
    model = model_of(
        """
        def add(a, b):
            return a + b

        f = jax.jit(add, in_shardings=(NamedSharding(mesh, P("x")), NamedSharding(mesh, P(None, "y"))))
        f(jnp.ones((8, 4)), jnp.ones((4, 6)))
        """
    )
    placements = list(model.all_placements())
    assert [(p.api, p.array.shape, p.spec.describe()) for p in placements] == [
        ("jit", (8, 4), "P('x')"),
        ("jit", (4, 6), "P(None, 'y')"),
    ]
    assert all(p.site is placements[0].site and p.site is not p.call for p in placements)


def test_jit_with_static_arguments_is_left_alone() -> None:
    body = """
    from functools import partial

    @partial(jax.jit, in_shardings=NamedSharding(mesh, P("x")), static_argnums=1)
    def scale(a, k):
        return a * k

    scale(jnp.ones((6, 4)), 2)
    """
    assert list(model_of(body).all_placements()) == []


def test_device_put_pairs_a_tuple_of_arrays_with_a_tuple_of_shardings() -> None:
    body = """
    rows = NamedSharding(mesh, P("x", None))
    a, b = jax.device_put((jnp.ones((8, 8)), jnp.ones(6)), (rows, NamedSharding(mesh, P("x"))))
    """
    assert [(p.array.shape, p.spec.describe()) for p in model_of(body).all_placements()] == [
        ((8, 8), "P('x', None)"),
        ((6,), "P('x')"),
    ]
    assert findings(body) == [(3, "JX504")]


def test_uneven_split_carries_the_calculator_inputs_with_the_same_numbers() -> None:
    text = HEADER + 'x = jax.device_put(jnp.ones((6, 4), dtype=jnp.bfloat16), NamedSharding(auto, P(("x", "y"))))\n'
    [diagnostic] = check_source(text, "case.py", Settings(select=("JX504",)))
    assert diagnostic.calculator is not None
    name, inputs = diagnostic.calculator
    assert name == "shard-shape"
    result = CALCULATOR.run(CALCULATOR.query(inputs))
    [dim] = [d for d in result.dims if not d.divisible]
    assert (dim.axis, dim.size, dim.factor) == (0, 6, 8)
    assert diagnostic.message.startswith("dimension 0 (size 6) ")
    assert diagnostic.message.endswith("is not divisible by mesh axes ('x', 'y') (4·2 = 8)")
    assert "6 is not divisible by 8" in diagnostic.detail
    assert "A size of 8 would give each device bf16[1,4]" in diagnostic.detail


def test_unknown_shapes_specs_and_meshes_stay_silent() -> None:
    body = """
    def place(x, axes, m):
        jax.device_put(x, NamedSharding(mesh, P("x")))
        NamedSharding(mesh, P(*axes))
        NamedSharding(m, P("z"))
    jax.device_put(jnp.ones((6, 4)), NamedSharding(mesh, P("x", P.UNCONSTRAINED)))
    """
    assert findings(body) == []


def test_scalar_placements_do_not_break_the_calculator() -> None:
    assert findings('jax.device_put(jnp.zeros(()), NamedSharding(mesh, P("x")))\n') == [(1, "JX503")]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('jax.make_mesh((4, 4), ("a", "b"))', [(1, "JX505")]),
        ('jax.make_mesh((2, 2), ("a", "b"))', []),
        ('jax.make_mesh((4, 4), ("a", "b"), devices=jax.devices()[:16])', []),
        ('Mesh(np.array(jax.devices()).reshape(4, 4), ("a", "b"))', [(1, "JX505")]),
        ('Mesh(np.array(jax.devices()).reshape(-1, 2), ("a", "b"))', []),
        ('Mesh(mesh_utils.create_device_mesh((2, 2)), ("a", "b"))', [(1, "JX505")]),
        ('Mesh(mesh_utils.create_device_mesh((8,)), ("a",))', []),
    ],
)
def test_mesh_sizes_against_the_configured_device_count(body: str, expected: list[tuple[int, str]]) -> None:
    assert findings(body + "\n", device_count=8) == expected
    assert findings(body + "\n") == []


def test_mesh_messages_quote_what_jax_and_numpy_raise() -> None:
    text = HEADER + 'Mesh(np.array(jax.devices()).reshape(4, 4), ("a", "b"))\njax.make_mesh((4, 4), ("a", "b"))\n'
    found = check_source(text, "case.py", Settings(select=("JX505",), device_count=8))
    assert [(d.message, d.detail) for d in found] == [
        (
            "reshaping all devices to (4, 4) needs 16 devices but `device-count` is 8",
            'NumPy raises "cannot reshape array of size 8 into shape (4,4)".',
        ),
        (
            "the mesh (4, 4) needs 16 devices but `device-count` is 8",
            'JAX raises "Number of devices 8 must be >= the product of mesh_shape (4, 4)".',
        ),
    ]


@pytest.mark.parametrize(
    "body",
    [
        # A later set_mesh of a mesh that is not known replaces the known one.
        'jax.set_mesh(mesh)\njax.set_mesh(make())\njax.device_put(jnp.ones((8, 4)), P("z"))\n',
        # A set_mesh in a function may run at any time: the module-level one is not trusted.
        'jax.set_mesh(mesh)\n\n\ndef switch():\n    jax.set_mesh(auto)\n\n\njax.device_put(jnp.ones((8, 4)), P("z"))\n',
        # An inner context that may hold another mesh.
        'with jax.set_mesh(mesh):\n    with other_mesh:\n        jax.device_put(jnp.ones((8, 4)), P("z"))\n',
        'with jax.set_mesh(mesh):\n    with jax.set_mesh(make()):\n        jax.device_put(jnp.ones((8, 4)), P("z"))\n',
    ],
)
def test_contexts_that_may_hold_another_mesh_resolve_nothing(body: str) -> None:
    assert findings(body) == []


def test_context_managers_that_are_no_mesh_keep_the_context() -> None:
    body = """
    with jax.set_mesh(mesh):
        with jax.named_scope("step"):
            jax.device_put(jnp.ones((8, 4)), P("z"))
    """
    assert findings(body) == [(4, "JX501")]


def test_code_that_checks_the_device_count_itself_is_not_judged_by_the_setting() -> None:
    body = """
    if jax.device_count() >= 16:
        big = jax.make_mesh((4, 4), ("a", "b"))


    def test_big():
        assert len(jax.devices()) == 16
        return Mesh(np.array(jax.devices()).reshape(4, 4), ("a", "b"))
    """
    assert findings(body, device_count=8) == []


def test_a_file_that_forces_its_host_device_count_is_not_judged_by_the_setting() -> None:
    body = """
    import os

    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    mesh8 = jax.make_mesh((8,), ("a",))
    """
    assert findings(body, device_count=4) == []


def test_jit_with_static_arguments_that_are_not_literal_is_left_alone() -> None:
    body = """
    from functools import partial

    STATIC = (1,)

    @partial(jax.jit, in_shardings=NamedSharding(mesh, P("x")), static_argnums=STATIC)
    def scale(a, k):
        return a * k

    scale(jnp.ones((6, 4)), 2)
    """
    assert list(model_of(body).all_placements()) == []
