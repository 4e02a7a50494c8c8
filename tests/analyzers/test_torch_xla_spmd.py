"""The torch_xla SPMD value model and the TX3xx checks that depend on settings or fixes."""

from __future__ import annotations

import ast

import pytest
from xlalens.analyzers.api import check_source
from xlalens.analyzers.core.diagnostics import Applicability
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.models.torch_xla.spmd import UNKNOWN, DeviceIds, SpmdMesh, TensorShape, spmd_model
from xlalens.analyzers.semantics.names import ModuleIndex

HEADER = """\
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch_xla.distributed.spmd import Mesh

xr.use_spmd()
num_devices = xr.global_runtime_device_count()
"""


def _last_value(source: str, device_count: int | None = None) -> object:
    tree = ast.parse(HEADER + source)
    index = ModuleIndex(tree, [ast.Call])
    last = tree.body[-1]
    assert isinstance(last, ast.Assign | ast.Expr)
    return spmd_model(index, device_count).value(last.value, index.module_scope)


def _codes(source: str, device_count: int | None = None) -> list[tuple[int, str]]:
    settings = Settings(device_count=device_count)
    return [(d.line - HEADER.count("\n"), d.code) for d in check_source(HEADER + source, "case.py", settings)]


@pytest.mark.parametrize(
    ("source", "device_count", "expected"),
    [
        ('m = xs.Mesh(np.arange(num_devices), (num_devices // 2, 2), ("x", "y"))', None, ((None, 2), ("x", "y"))),
        ('m = xs.Mesh(np.arange(num_devices), (num_devices // 2, 2), ("x", "y"))', 8, ((4, 2), ("x", "y"))),
        ("m = Mesh(list(range(8)), mesh_shape=[2, 4])", None, ((2, 4), None)),
        ('m = xs.get_1d_mesh("data")', 4, ((4,), ("data",))),
        (
            'm = xs.HybridMesh(ici_mesh_shape=(1, 4), dcn_mesh_shape=(2, 1), axis_names=("a", "b"))',
            None,
            ((2, 4), ("a", "b")),
        ),
    ],
)
def test_mesh_values(source: str, device_count: int | None, expected: tuple[object, object]) -> None:
    value = _last_value(source, device_count)
    assert isinstance(value, SpmdMesh)
    assert (value.shape, value.axis_names) == expected
    assert value.names_known


def test_names_flow_through_single_assignments() -> None:
    source = 'names = ("x", "y")\nshape = (num_devices // 2, 2)\nm = xs.Mesh(np.arange(num_devices), shape, names)'
    value = _last_value(source, 8)
    assert value == SpmdMesh((4, 2), ("x", "y"), True)


def test_names_bound_twice_or_mutated_are_unknown() -> None:
    value = _last_value('names = ("x",)\nnames = ("y",)\nm = xs.Mesh(ids, (8,), names)')
    assert isinstance(value, SpmdMesh) and not value.names_known
    assert _last_value('spec = ["x"]\nspec.append(None)\nspec') is UNKNOWN


@pytest.mark.parametrize(
    ("source", "device_count", "expected"),
    [
        ("np.arange(num_devices)", None, DeviceIds(None, all_devices=True)),
        ("np.array(range(num_devices))", 2, DeviceIds(2, (0, 1), all_devices=True)),
        ("[3, 1, 2, 0]", None, None),
        ("np.arange(1, 4)", None, DeviceIds(3, (1, 2, 3))),
    ],
)
def test_device_ids(source: str, device_count: int | None, expected: DeviceIds | None) -> None:
    tree = ast.parse(HEADER + f"m = xs.Mesh({source}, (4,))")
    index = ModuleIndex(tree, [ast.Call])
    statement = tree.body[-1]
    assert isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)
    call = statement.value
    ids = spmd_model(index, device_count).ids_of_call(call, index.module_scope)
    if expected is None:
        assert ids == DeviceIds(4, (3, 1, 2, 0))
    else:
        assert ids == expected


@pytest.mark.parametrize(
    ("source", "shape"),
    [
        ("torch.randn(8, 4)", (8, 4)),
        ("torch.zeros((8, 4), device=torch_xla.device())", (8, 4)),
        ("torch.ones(size=(2, 3, 4)).to('xla').float()", (2, 3, 4)),
        ("torch.nn.Parameter(torch.empty(16))", (16,)),
        ("torch.randn(batch, 4)", (None, 4)),
        ("torch.nn.Linear(32, 10).to('xla').weight", (10, 32)),
        ("torch.nn.Linear(in_features=32, out_features=10).bias", (10,)),
        ("torch.nn.Embedding(100, 16).weight", (100, 16)),
    ],
)
def test_tensor_shapes(source: str, shape: tuple[int | None, ...]) -> None:
    assert _last_value(source) == TensorShape(shape)


def test_unknown_tensor_shapes_stay_unknown() -> None:
    assert not isinstance(_last_value("torch.randn(sizes)"), TensorShape)
    assert not isinstance(_last_value("torch.randn(8, 4).view(32)"), TensorShape)
    assert _last_value("torch.nn.Linear(4, 4, bias=False).bias") is UNKNOWN
    assert _last_value("layer = torch.nn.Linear(4, 4)\nlayer.weight = w\nlayer.weight") is UNKNOWN
    assert _last_value("t = torch.randn(8, 4)\nt.unsqueeze_(0)\nt") is UNKNOWN


def test_device_count_setting_checks_ids_and_shapes() -> None:
    source = 'xs.Mesh(np.arange(9), (3, 3))\nxs.Mesh(np.arange(num_devices), (num_devices // 2, 4), ("x", "y"))\n'
    assert _codes(source) == []
    assert _codes(source, device_count=8) == [(1, "TX301"), (2, "TX301")]
    assert _codes('xs.HybridMesh(ici_mesh_shape=(4, 4), axis_names=("x", "y"))', device_count=8) == [(1, "TX301")]
    assert _codes('xs.HybridMesh(ici_mesh_shape=(4, 2), axis_names=("x", "y"))', device_count=8) == []


def test_device_count_messages_quote_torch_xla() -> None:
    settings = Settings(device_count=8)
    [diagnostic] = check_source(HEADER + "xs.Mesh(np.arange(9), (3, 3))", "case.py", settings)
    assert diagnostic.message == "9 device ids for 8 devices (the `device-count` setting)"
    assert "Number of device IDs (9) must match the global number of devices (8)" in diagnostic.detail


def test_spec_length_fix_pads_with_none() -> None:
    source = 'mesh = xs.get_1d_mesh("x")\nxs.mark_sharding(torch.randn(8, 4, 2), mesh, ("x",))\n'
    [diagnostic] = check_source(HEADER + source, "case.py")
    assert diagnostic.code == "TX302"
    assert diagnostic.fix is not None and diagnostic.fix.applicability is Applicability.UNSAFE
    assert [edit.content for edit in diagnostic.fix.edits] == ['("x", None, None)']


def test_spec_length_fix_only_for_literal_shorter_tuples() -> None:
    source = (
        'mesh = xs.get_1d_mesh("x")\nspec = ("x",)\nxs.mark_sharding(torch.randn(8, 4), mesh, spec)\n'
        'xs.mark_sharding(torch.randn(8), mesh, ("x", None))\n'
    )
    diagnostics = check_source(HEADER + source, "case.py")
    assert [d.code for d in diagnostics] == ["TX302", "TX302"]
    assert all(d.fix is None for d in diagnostics)


def test_list_specs_are_left_to_the_length_check() -> None:
    # A list spec raises "unhashable type: 'list'" before torch_xla looks at its axes.
    source = 'mesh = xs.get_1d_mesh("x")\nxs.mark_sharding(torch.randn(8, 4), mesh, ["y", "y"])\n'
    assert _codes(source) == []
