"""Sharding hints: the per-device shard of each placement, with the shard-shape calculator's inputs."""

from __future__ import annotations

from xlalens.analyzers.annotate import hint_providers, hints_for_source
from xlalens.explainers.calculators.shard_shape import CALCULATOR

CODE = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
auto = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
a = jax.device_put(jnp.ones((8, 6)), NamedSharding(mesh, P("x", None)))
b = jax.device_put(jnp.ones((16, 3), dtype=jnp.bfloat16), NamedSharding(auto, P(("x", "y"))))
c = jax.device_put(jnp.ones((6, 4)), NamedSharding(mesh, P("x")))
with jax.set_mesh(mesh):
    d = jax.device_put(jnp.ones((8, 6)), P(None, "y"))


def add(u, v):
    return u + v


f = jax.jit(add, in_shardings=(NamedSharding(mesh, P("x", "y")), NamedSharding(mesh, P())))
e = f(jnp.ones((8, 6)), jnp.ones(3))
"""


def test_each_known_placement_gets_its_shard_and_replication() -> None:
    hints = hints_for_source(CODE, "sharding")
    assert [(h.position.line, h.label) for h in hints] == [
        (8, "per device f32[2,6], 2 replicas"),
        (9, "per device bf16[2,3]"),
        (12, "per device f32[8,3], 4 replicas"),
        (20, "per device f32[2,3]"),
        (20, "per device f32[3], 8 replicas"),
    ]
    assert all(h.target == "shard" and h.calculator == "shard-shape" for h in hints)


def test_the_hover_inputs_give_the_calculator_the_same_numbers() -> None:
    first = hints_for_source(CODE, "sharding")[0]
    assert first.inputs == {"mesh": [["x", 4], ["y", 2]], "shape": [8, 6], "dtype": "f32", "spec": ["x", None]}
    result = CALCULATOR.run(CALCULATOR.query(first.inputs))
    assert (result.shard_shape, result.replication) == ((2, 6), 2)
    assert first.description == (
        "f32[8,6] at `device_put` with P('x', None) on Mesh('x': 4, 'y': 2, axis_types=(Explicit, Explicit)): "
        "each device holds f32[2,6], and 2 devices hold each shard"
    )


def test_a_hover_covers_the_whole_device_put_and_only_the_argument_of_a_jitted_call() -> None:
    hints = hints_for_source(CODE, "sharding")
    put, jitted = hints[0], hints[3]
    assert (put.span.start.line, put.span.start.column) == (8, 4)
    assert (jitted.span.start.line, jitted.span.start.column) == (20, 6)


def test_rejected_and_unknown_placements_get_no_hint() -> None:
    code = CODE + "def g(x):\n    return jax.device_put(x, NamedSharding(mesh, P('x')))\n"
    assert all(h.position.line not in (10, 22) for h in hints_for_source(code, "sharding"))


def test_the_provider_is_registered() -> None:
    assert "sharding" in hint_providers()


def test_no_hint_where_the_mesh_axis_types_are_refused() -> None:
    code = CODE + (
        'g = jax.lax.with_sharding_constraint(jnp.ones((8, 6)), NamedSharding(mesh, P("x")))\n'
        'h = jax.lax.with_sharding_constraint(jnp.ones((8, 6)), NamedSharding(auto, P("x")))\n'
        "with jax.set_mesh(auto):\n"
        '    k = jax.reshard(jnp.ones((8, 6)), P("x"))\n'
    )
    assert [h.position.line for h in hints_for_source(code, "sharding") if h.position.line > 20] == [22]


def test_shard_map_parameters_show_the_block_each_device_sees() -> None:
    code = (
        "from functools import partial\n"
        "import jax\n"
        "import jax.numpy as jnp\n"
        "from jax.sharding import AxisType, NamedSharding, PartitionSpec as P\n"
        'mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))\n'
        'x = jax.device_put(jnp.ones((32, 512)), NamedSharding(mesh, P("data")))\n'
        '@partial(jax.shard_map, mesh=mesh, in_specs=(P("data"), P(None, "model")), out_specs=P("data", "model"))\n'
        "def step(x, w):\n"
        "    return x @ w\n"
        "step(x, jnp.zeros((512, 1000), jnp.bfloat16))\n"
    )
    local = [
        (h.label, h.position.line, h.position.column) for h in hints_for_source(code, "sharding") if h.target == "local"
    ]
    assert local == [("f32[8,512] per device", 8, 10), ("bf16[512,500] per device", 8, 13)]


def test_no_parameter_hint_when_the_split_is_uneven() -> None:
    code = (
        "import jax\n"
        "import jax.numpy as jnp\n"
        "from jax.sharding import PartitionSpec as P\n"
        'mesh = jax.make_mesh((4,), ("data",))\n'
        'f = jax.shard_map(lambda x: x, mesh=mesh, in_specs=P("data"), out_specs=P("data"))\n'
        "f(jnp.ones((30, 4)))\n"
    )
    assert [h for h in hints_for_source(code, "sharding") if h.target == "local"] == []
