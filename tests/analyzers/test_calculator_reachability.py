"""Every calculator is reachable from code: a rule's diagnostic or a hint's hover links it, with the code's numbers.

The wirings of the transform-stack (JX110), pipeline (Pallas grid hover on TPU), reshard (sharding
hover on a second placement), pytree (JX701) and remat (``jax.checkpoint`` hover) calculators are
checked here; each prefilled link must compute, and the hovers render through the language
server's Markdown.
"""

from __future__ import annotations

import types

from xlalens.analyzers.annotate import hints_for_source
from xlalens.analyzers.api import check_source
from xlalens.analyzers.engine.registry import all_rules
from xlalens.analyzers.models import checkpoint_hints, matmul_hints
from xlalens.analyzers.models.pallas import hints as pallas_hints
from xlalens.analyzers.models.sharding import hints as sharding_hints
from xlalens.analyzers.models.torch_xla import hints as torch_xla_hints
from xlalens.analyzers.models.tracing import hints as tracing_hints
from xlalens.explainers.calculators import get_calculator
from xlalens.explainers.calculators.registry import all_calculators
from xlalens.explainers.links import DEFAULT_BASE_URL
from xlalens.server.hover import span_markdown

HINT_MODULES: tuple[types.ModuleType, ...] = (
    checkpoint_hints,
    matmul_hints,
    pallas_hints,
    sharding_hints,
    torch_xla_hints,
    tracing_hints,
)


def _hint_calculators() -> set[str]:
    """The calculators the hint modules name: their ``*_CALCULATOR`` constants."""
    return {
        value
        for module in HINT_MODULES
        for name, value in vars(module).items()
        if name.endswith("_CALCULATOR") and isinstance(value, str)
    }


def test_every_registered_calculator_is_linked_from_a_rule_or_a_hint() -> None:
    linked = {rule.calculator for rule in all_rules() if rule.calculator} | _hint_calculators()
    registered = {calculator.name for calculator in all_calculators()}
    assert registered - linked == set()
    assert linked - registered == set()  # a link to no calculator would show nothing


def _result(name: str, inputs: dict[str, object]) -> object:
    calculator = get_calculator(name)
    return calculator.run(calculator.query(inputs))


JX110 = """
import jax
import jax.numpy as jnp


def loss(w, x):
    return x * w


def loss3(w, xs, ys):
    return (xs @ w - ys) ** 2


a = jax.grad(loss)(jnp.ones(3), jnp.ones(3))
b = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0)))(jnp.ones(3), jnp.ones((8, 3)))
c = jax.grad(loss3)(jnp.ones(3), jnp.ones((8, 3)), jnp.zeros(8))
"""


def test_jx110_links_the_transform_stack_with_the_call_shapes() -> None:
    found = [d for d in check_source(JX110) if d.code == "JX110"]
    assert [(d.range.start.line, d.calculator) for d in found] == [
        (14, ("transform-stack", {"stack": "grad", "w": "3", "x": "3", "out": "3"})),
        (
            15,
            (
                "transform-stack",
                {"stack": "jit, vmap, grad", "w": "3", "x": "3", "out": "3", "batch": 8, "in-axes": "(None, 0)"},
            ),
        ),
        (16, ("transform-stack", {})),  # three parameters: not f(w, x), so the link has the example
    ]
    for diagnostic in found[:2]:
        assert diagnostic.calculator is not None
        result = _result(*diagnostic.calculator)
        # The calculator predicts the TypeError the rule reports, with JAX's text.
        assert result.error == "Gradient only defined for scalar-output functions. Output had shape: (3,)."  # type: ignore[attr-defined]


PALLAS_TPU = """
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, w_ref, o_ref):
    o_ref[...] = x_ref[...] @ w_ref[...]


x = jnp.ones((1024, 512))
w = jnp.ones((512, 256))
y = pl.pallas_call(
    kernel,
    out_shape=jax.ShapeDtypeStruct((1024, 256), jnp.float32),
    grid=(4, 2),
    in_specs=[pl.BlockSpec((256, 512), lambda i, j: (i, 0)), pl.BlockSpec((512, 128), lambda i, j: (0, j))],
    out_specs=pl.BlockSpec((256, 128), lambda i, j: (i, j)),
)(x, w)
"""


def test_a_tpu_pallas_grid_hover_shows_the_pipeline_schedule_of_its_index_maps() -> None:
    [grid] = [hint for hint in hints_for_source(PALLAS_TPU, "pallas") if hint.target == "grid"]
    assert grid.calculator == "pipeline"
    assert dict(grid.inputs or {}) == {
        "grid": [4, 2],
        "inputs": "x: lambda i, j: (i, 0); w: lambda i, j: (0, j)",
        "outputs": "out0: lambda i, j: (i, j)",
    }
    result = _result("pipeline", dict(grid.inputs or {}))
    # x's block changes with i only (every 2 steps), w's with j (every step); the output every step.
    assert result.copies == (("x", 4), ("w", 8))  # type: ignore[attr-defined]
    assert result.writes == (("out0", 8),)  # type: ignore[attr-defined]
    hover = span_markdown([grid], grid.span.start, DEFAULT_BASE_URL)
    assert hover is not None and hover.startswith("**Pallas** · grid (4, 2)")
    assert f"({DEFAULT_BASE_URL}/calc/pipeline?" in hover


def test_a_pallas_grid_without_a_tpu_target_keeps_the_blockspec_calculator() -> None:
    code = PALLAS_TPU.replace("from jax.experimental.pallas import tpu as pltpu\n", "")
    [grid] = [hint for hint in hints_for_source(code, "pallas") if hint.target == "grid"]
    assert grid.calculator == "blockspec"


RESHARD = """
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
x = jax.device_put(jnp.ones((16, 8)), NamedSharding(mesh, P("x", None)))
y = jax.device_put(x, NamedSharding(mesh, P(None, "x")))
u = jax.device_put(jnp.ones((16, 8)), NamedSharding(mesh, P("x", None)))
u = jax.device_put(jnp.ones((16, 8)), NamedSharding(mesh, P(None, "x")))
z = jax.device_put(u, NamedSharding(mesh, P(None, "x")))
"""


def test_a_second_placement_of_a_placed_array_hovers_the_reshard_between_the_specs() -> None:
    hints = hints_for_source(RESHARD, "sharding")
    assert [(hint.span.start.line, hint.calculator) for hint in hints] == [
        (7, "shard-shape"),
        (8, "reshard"),
        (9, "shard-shape"),
        (10, "shard-shape"),
        (11, "shard-shape"),  # `u` is bound twice: which layout it has here is not certain
    ]
    moved = hints[1]
    assert dict(moved.inputs or {}) == {
        "mesh": [["x", 4], ["y", 2]],
        "shape": [16, 8],
        "dtype": "f32",
        "source": ["x", None],
        "target": [None, "x"],
    }
    result = _result("reshard", dict(moved.inputs or {}))
    # f32[4,8] blocks (128 bytes); the all-to-all over x keeps 1/4 and receives the rest.
    assert (result.collective, result.received) == ("all-to-all", 96)  # type: ignore[attr-defined]
    assert moved.description.endswith("moving it from P('x', None) takes all-to-all, 96 bytes received per device")
    hover = span_markdown(hints, moved.span.start, DEFAULT_BASE_URL)
    assert hover is not None and hover.startswith("**Sharding** · ")
    assert "**Resharding calculator:**" in hover or f"({DEFAULT_BASE_URL}/calc/reshard?" in hover


def test_jx701_links_the_pytree_calculator_with_its_example() -> None:
    code = "import jax\nimport jax.numpy as jnp\nscaled = jax.tree_map(lambda p: 0.5 * p, {'w': jnp.ones(3)})\n"
    [finding] = [d for d in check_source(code) if d.code == "JX701"]
    assert finding.calculator == ("pytree", {})


CHECKPOINT = """
import jax
from functools import partial

a = jax.checkpoint(lambda x: x)
b = jax.remat(lambda x: x, policy=jax.checkpoint_policies.dots_saveable)
c = jax.checkpoint(lambda x: x, policy=jax.checkpoint_policies.save_only_these_names("h"))


@partial(jax.checkpoint, policy=jax.checkpoint_policies.everything_saveable)
def layer(x):
    return x


@jax.checkpoint
def other(x):
    return x
"""


def test_checkpoint_hovers_show_the_remat_calculator_for_their_policy() -> None:
    hints = hints_for_source(CHECKPOINT, "remat")
    assert [(hint.span.start.line, hint.label, dict(hint.inputs or {})) for hint in hints] == [
        (5, "remat: keeps only its inputs", {"policy": "nothing_saveable"}),  # no policy: JAX keeps the same
        (6, "remat: keeps inputs and matmul outputs", {"policy": "dots_saveable"}),
        (10, "remat: keeps every residual", {"policy": "everything_saveable"}),
        (15, "remat: keeps only its inputs", {"policy": "nothing_saveable"}),
    ]  # not: save_only_these_names (line 7), which the calculator does not model
    assert all(hint.calculator == "remat" for hint in hints)
    hover = span_markdown(hints, hints[1].span.start, DEFAULT_BASE_URL)
    assert hover is not None and hover.startswith("**Remat** · `jax.checkpoint` with policy dots_saveable")
    assert f"({DEFAULT_BASE_URL}/calc/remat?policy=dots_saveable)" in hover
