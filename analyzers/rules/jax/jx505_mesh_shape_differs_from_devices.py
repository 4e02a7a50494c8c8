"""JX505: a mesh whose shape does not fit its devices or its axis names."""

from __future__ import annotations

import ast
import math
import re
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import first_fitting, tuple_text
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.sharding.values import DevicesValue, MeshValue
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.analyzers.semantics.values import CallArguments, Seq

_MAKE_MESH = frozenset({"jax.make_mesh", "jax.sharding.make_mesh"})
_MESH = frozenset({"jax.sharding.Mesh", "jax._src.mesh.Mesh"})
_CREATE_DEVICE_MESH = frozenset(
    {"jax.experimental.mesh_utils.create_device_mesh", "jax._src.mesh_utils.create_device_mesh"}
)
_NDIM_ERROR = (
    "Mesh requires the ndim of its first argument (`devices`) to equal the length of its second argument "
    "(`axis_names`), but got devices.ndim == {ndim} and len(axis_names) == {names}."
)


_MESH_CALLS = _MAKE_MESH | _MESH | _CREATE_DEVICE_MESH

_DEVICE_ARRAY_MAKERS = ("devices", "local_devices", "create_device_mesh")
"""The last part of every call whose result ``.reshape`` can turn into a mesh's device array."""


@register_rule
class MeshShapeDiffersFromDevices(Rule):
    """## What it does
    Finds meshes whose shape does not fit: `jax.make_mesh` with a different number of axis sizes
    than axis names, `Mesh(devices, axis_names)` whose device array has a different number of
    dimensions than there are names, and — when `device-count` is configured — `jax.make_mesh`,
    `mesh_utils.create_device_mesh` or `np.array(jax.devices()).reshape(...)` asking for a shape
    whose product the devices cannot fill.

    ## Why is this bad?
    A mesh gives each dimension of its device array one name, so their counts must agree: JAX
    raises `ValueError: Mesh requires the ndim of its first argument (`devices`) to equal the
    length of its second argument (`axis_names`)`. A mesh also needs as many devices as the
    product of its shape: `jax.make_mesh((4, 4), ...)` on 8 devices raises `ValueError: Number of
    devices 8 must be >= the product of mesh_shape (4, 4)`, `create_device_mesh` wants exactly
    that many, and reshaping the device list to another size fails in NumPy (`cannot reshape
    array of size 8 into shape (4,4)`).

    ## Example
    ```python
    import jax

    mesh = jax.make_mesh((4, 2), ("data",))
    ```

    Use instead:
    ```python
    import jax

    mesh = jax.make_mesh((4, 2), ("data", "model"))
    ```

    ## Options
    - `device-count`: the number of devices the code runs on; without it only shapes that
      contradict their own axis names are reported, except in a file that forces its own host
      device count with a literal `os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"`
      (a test simulating a pod on CPU), whose meshes are checked against that count. Code that
      tests the device count itself (`if jax.device_count() >= 16:`), or forces it alongside the
      setting or in another way, is left alone.

    ## References
    - `jax/_src/mesh.py`, `Mesh.__new__`; `jax/_src/sharding_impls.py`, `make_mesh`
    """

    code = "JX505"
    raises = ("ValueError",)
    message = "the mesh shape does not fit its devices or its axis names"
    explainer = "sharding#mesh-and-devices"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names: ClassVar[frozenset[str] | None] = _MESH_CALLS
    call_attributes: ClassVar[frozenset[str]] = frozenset({"reshape"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        qualname = ctx.index.qualname(node.func, ctx.scope) if isinstance(node.func, ast.Name | ast.Attribute) else None
        if qualname not in _MESH_CALLS and not any(ctx.index.mentions(name) for name in _DEVICE_ARRAY_MAKERS):
            return  # `x.reshape(...)` can only be a device array's where the module asks for devices
        value = ctx.value(node)
        if isinstance(value, MeshValue) and value.node is node and value.constructor in ("make_mesh", "Mesh"):
            self.check_names(node, value, ctx)
            if value.constructor == "make_mesh":
                self.check_make_mesh_devices(node, value, ctx)
        elif isinstance(value, DevicesValue) and value.node is node and value.all_devices:
            self.check_device_array(node, value, qualname in _CREATE_DEVICE_MESH, ctx)

    def check_names(self, node: ast.Call, mesh: MeshValue, ctx: CheckContext) -> None:
        """The mesh's rank against its number of axis names."""
        bound = CallArguments(node, [ctx.value(arg) for arg in node.args], {})
        names_expr = bound.expr(1, "axis_names")
        if names_expr is None or mesh.axis_names is None:
            return
        names_value = ctx.value(names_expr)
        if not isinstance(names_value, Seq):
            return  # one string is one name, and JAX accepts it only with a 1-d device array
        if mesh.constructor == "make_mesh":
            shape_value = ctx.value(bound.expr(0, "axis_shapes") or node)
            if not isinstance(shape_value, Seq):
                return
            ndim, subject = len(shape_value.items), "`jax.make_mesh` gets"
            shape = mesh.axis_sizes
            sizes = f"{ndim} axis size{'s' if ndim != 1 else ''}"
        else:
            devices = mesh.devices
            if devices is None or devices.shape is None:
                return
            ndim, subject = len(devices.shape), "`Mesh` gets a device array with"
            shape = devices.shape
            sizes = f"{ndim} dimension{'s' if ndim != 1 else ''}"
        count = len(mesh.axis_names)
        if ndim == count:
            return
        shape_text = "" if shape is None or any(s is None for s in shape) else " " + str(tuple(shape))
        named = f"{count} axis name{'s' if count != 1 else ''}"
        ctx.report(
            names_expr,
            first_fitting(
                f"{subject} {sizes}{shape_text} but {named} {mesh.axis_names}",
                f"{subject} {sizes}{shape_text} but {named}",
            ),
            detail=f"The axis names are {mesh.axis_names}; every mesh dimension needs exactly one name. JAX raises "
            f'"{_NDIM_ERROR.format(ndim=ndim, names=count)}"',
        )

    def check_make_mesh_devices(self, node: ast.Call, mesh: MeshValue, ctx: CheckContext) -> None:
        """``jax.make_mesh`` asking for more devices than ``device-count``."""
        configured = _configured_count(ctx)
        sizes = mesh.axis_sizes
        if configured is None or sizes is None or any(s is None for s in sizes) or "devices" in _keywords(node):
            return
        devices, where = configured
        shape = tuple(s for s in sizes if s is not None)
        needed = math.prod(shape)
        if needed <= devices:
            return
        ctx.report(
            node.args[0] if node.args else node,
            f"the mesh {tuple_text(shape)} needs {needed} devices but {where}",
            detail=f'JAX raises "Number of devices {devices} must be >= the product of mesh_shape '
            f'{tuple_text(shape)}".',
        )

    def check_device_array(self, node: ast.Call, devices: DevicesValue, create: bool, ctx: CheckContext) -> None:
        """All devices reshaped, or laid out by ``create_device_mesh``, to a shape of another size."""
        configured = _configured_count(ctx)
        shape = devices.shape
        if configured is None or shape is None or any(s is None or s < 0 for s in shape):
            return
        count, where = configured
        known = tuple(s for s in shape if s is not None)
        needed = math.prod(known)
        if needed == count:
            return
        if create:
            raised = f'JAX raises "Number of devices {count} must equal the product of mesh_shape {tuple_text(known)}"'
            subject = f"`create_device_mesh({tuple_text(known)})`"
        elif isinstance(node.func, ast.Attribute) and node.func.attr == "reshape":
            numpy_shape = "(" + ",".join(str(s) for s in known) + ("," if len(known) == 1 else "") + ")"
            raised = f'NumPy raises "cannot reshape array of size {count} into shape {numpy_shape}"'
            subject = f"reshaping all devices to {tuple_text(known)}"
        else:
            return
        ctx.report(node, f"{subject} needs {needed} devices but {where}", detail=f"{raised}.")


_FORCED_HOST_COUNT = "xla_force_host_platform_device_count"
_DEVICE_QUERIES = frozenset({"device_count", "local_device_count", "devices", "local_devices"})


def _configured_count(ctx: CheckContext) -> tuple[int, str] | None:
    """The device count the code runs with, and how messages name it: ``device-count``; or, when that is
    not set, the host device count the file forces with a literal ``XLA_FLAGS`` assignment
    (``--xla_force_host_platform_device_count=8``). None when the file forces a count some other way
    or alongside the setting (it runs with its own), or when the code around the mesh asks for the
    device count itself in a condition, an assert or a decorator (``if jax.device_count() >= 16:``,
    ``@skipif(jax.device_count() < 8)``): it is written for several counts, and the configured one says
    nothing about the branch."""
    count: int | None = ctx.settings.device_count
    where = f"`device-count` is {count}"
    if _FORCED_HOST_COUNT in ctx.source.text:
        forced = ctx.index.derived("forced-host-device-count", forced_host_device_count)
        if count is not None or forced is None:
            return None
        count, where = forced, f"the file forces {forced} host devices"
    if count is None:
        return None
    owner = ctx.scope.enclosing_function()
    root = owner.node if owner is not None else ctx.index.tree
    tests: list[ast.AST] = []
    if isinstance(root, ast.FunctionDef | ast.AsyncFunctionDef):
        tests.extend(root.decorator_list)
    for node in ast.walk(root):
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            tests.append(node.test)
    for test in tests:
        for node in ast.walk(test):
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
            if name in _DEVICE_QUERIES:
                return None
    return count, where


_FORCED_COUNT = re.compile(r"--xla_force_host_platform_device_count=(\d+)")


def forced_host_device_count(index: ModuleIndex) -> int | None:
    """The host device count a module forces at its top level: ``os.environ["XLA_FLAGS"] = "...count=8"``
    (or ``os.environ.setdefault``/``update`` with a literal), when that is the only way it sets it.

    Examples:
        >>> code = 'import os\\nos.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"\\n'
        >>> forced_host_device_count(ModuleIndex(ast.parse(code), []))
        8
        >>> forced_host_device_count(ModuleIndex(ast.parse(code + 'os.environ["XLA_FLAGS"] = flags\\n'), []))
    """
    found: set[int] = set()
    for node in ast.walk(index.tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _FORCED_HOST_COUNT in node.value:
            match = _FORCED_COUNT.search(node.value)
            if match is None:
                return None
            found.add(int(match.group(1)))
    writes = [
        statement
        for statement in index.tree.body
        if isinstance(statement, ast.Assign)
        and any(
            isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and t.slice.value == "XLA_FLAGS"
            for t in statement.targets
        )
    ]
    literal = all(isinstance(w.value, ast.Constant) and _FORCED_HOST_COUNT in str(w.value.value) for w in writes)
    return found.pop() if len(found) == 1 and writes and literal else None


def _keywords(node: ast.Call) -> set[str]:
    return {k.arg for k in node.keywords if k.arg is not None}
