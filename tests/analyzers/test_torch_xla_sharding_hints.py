"""torch_xla sharding hints: the per-device buffer of each ``xs.mark_sharding``, with padding, and the
shard-shape calculator's torch_xla inputs."""

from __future__ import annotations

from xlalens.analyzers.annotate import hint_providers, hints_for_source
from xlalens.explainers.calculators.shard_shape import CALCULATOR, ShardShapeResult

CODE = """\
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
mesh = xs.Mesh(np.arange(8), (4, 2), ("x", "y"))
a = torch.randn(8, 6).to(torch_xla.device())
xs.mark_sharding(a, mesh, ("x", None))
b = torch.zeros((6, 4), dtype=torch.bfloat16).to(torch_xla.device())
xs.mark_sharding(b, mesh, ("x", None))
c = torch.ones(8, 3, dtype=torch.int32)
xs.mark_sharding(c, mesh, (None, 1))
d = torch.randn(16, 3)
xs.mark_sharding(d, mesh, (("x", "y"), None))
xs.mark_sharding(torch.randn(7, 5), mesh, (0, "y"))
"""


def test_each_known_mark_sharding_gets_its_shard_replicas_and_padding() -> None:
    hints = hints_for_source(CODE, "torch_xla_sharding")
    assert [(h.position.line, h.label) for h in hints] == [
        (10, "per device [2,6], 2 replicas"),
        (12, "per device bf16[2,4], 2 replicas, last 2 padded"),
        (14, "per device i32[8,2], 4 replicas, padded axis 1 by 1"),
        (16, "per device [2,3]"),
        (17, "per device [2,3], padded axis 0 by 1, axis 1 by 1"),
    ]
    assert all(h.target == "shard" and h.calculator == "shard-shape" for h in hints)


def test_the_hover_inputs_run_the_calculator_in_torch_xla_mode() -> None:
    padded = hints_for_source(CODE, "torch_xla_sharding")[1]
    assert padded.inputs == {
        "mesh": [["x", 4], ["y", 2]],
        "shape": [6, 4],
        "dtype": "bf16",
        "spec": ["x", None],
        "framework": "torch_xla",
    }
    result = CALCULATOR.run(CALCULATOR.query(padded.inputs))
    assert isinstance(result, ShardShapeResult)
    assert (result.shard_shape, result.replication, result.errors) == ((2, 4), 2, ())
    assert padded.description == (
        "tensor (6, 4) with spec ('x', None) on mesh ('x': 4, 'y': 2): each device holds bf16[2,4], and 2 devices "
        "hold each shard; array axis 0 of size 6 is cut 4 ways into blocks of 2, 2 of them padding"
    )
    assert (padded.span.start.line, padded.span.start.column, padded.span.end.line) == (12, 0, 12)


def test_the_dtype_is_left_out_when_unknown() -> None:
    first = hints_for_source(CODE, "torch_xla_sharding")[0]
    assert first.inputs is not None and first.inputs["dtype"] is None


def test_calls_torch_xla_rejects_or_the_source_does_not_fix_get_no_hint() -> None:
    code = CODE + (
        'xs.mark_sharding(a, mesh, ("x",))\n'  # TX302: length differs from the rank
        'xs.mark_sharding(a, mesh, ("z", None))\n'  # TX303: no such axis
        'xs.mark_sharding(a, mesh, ("x", "x"))\n'  # TX304: an axis twice
        "xs.mark_sharding(a, mesh, (2, None))\n"  # no mesh axis 2
        "n = xr.global_runtime_device_count()\n"
        'big = xs.Mesh(np.arange(n), (n, 1), ("data", "model"))\n'
        'xs.mark_sharding(a, big, ("data", None))\n'  # the device count is unknown to a hint
        "plain = xs.Mesh(np.arange(8), (4, 2))\n"
        "xs.mark_sharding(a, plain, (0, None))\n"  # no axis names
        "def f(t):\n"
        '    xs.mark_sharding(t, mesh, ("x", None))\n'  # a parameter's shape is unknown
    )
    assert [h.position.line for h in hints_for_source(code, "torch_xla_sharding")] == [10, 12, 14, 16, 17]


def test_a_dtype_change_after_the_constructor_hides_the_dtype() -> None:
    code = (
        "import torch\n"
        "import numpy as np\n"
        "import torch_xla.distributed.spmd as xs\n"
        'mesh = xs.Mesh(np.arange(8), (8,), ("x",))\n'
        "dtype = torch.float16\n"
        "t = torch.zeros(8, dtype=torch.float32).to(dtype)\n"
        'xs.mark_sharding(t, mesh, ("x",))\n'
    )
    assert [h.label for h in hints_for_source(code, "torch_xla_sharding")] == ["per device [1]"]


def test_the_provider_is_registered() -> None:
    assert "torch_xla_sharding" in hint_providers()
