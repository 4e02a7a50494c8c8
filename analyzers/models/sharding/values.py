"""Abstract values of JAX's sharding API: device arrays, meshes, PartitionSpecs and NamedShardings.

The interpreter (:mod:`.evaluate`) hands every call of a sharding constructor here, so a mesh built
in one statement and used in another keeps its axis names and sizes, and a ``P('data', None)``
assigned to a name stays a spec. The values only describe what was written; which array a spec
is applied to, and whether that fits, is worked out by the sharding rules. Anything that is not a
literal the interpreter knows stays unknown (``None`` inside these values), so no rule fires on a
guess.

Examples:
    >>> import ast
    >>> from xlalens.analyzers.semantics.values import Const, Seq
    >>> call = ast.parse("make_mesh((4, 2), ('x', 'y'))").body[0].value
    >>> mesh = evaluate_call(
    ...     "jax.make_mesh", call, [Seq((Const(4), Const(2))), Seq((Const("x"), Const("y")))], {}
    ... )
    >>> mesh.describe()
    "Mesh('x': 4, 'y': 2, axis_types=(Explicit, Explicit))"
    >>> mesh.size("y"), mesh.device_count
    (2, 8)
    >>> spec = evaluate_call("jax.sharding.PartitionSpec", call, [Const("x"), Const(None)], {})
    >>> spec.describe()
    "P('x', None)"
"""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xlalens.analyzers.semantics.interpreter import ApiCall, InterpreterExtension
from xlalens.analyzers.semantics.values import UNKNOWN, Array, CallArguments, Const, ModuleRef, Seq, Value

# Every spelling of each constructor, public and internal, after ``names.canonical``.
_MAKE_MESH = frozenset({"jax.make_mesh", "jax.sharding.make_mesh", "jax._src.mesh_utils.make_mesh"})
_MESH = frozenset({"jax.sharding.Mesh", "jax._src.mesh.Mesh", "jax.experimental.maps.Mesh"})
_ABSTRACT_MESH = frozenset({"jax.sharding.AbstractMesh", "jax._src.mesh.AbstractMesh"})
MESH_CONSTRUCTOR_NAMES = frozenset(name.rsplit(".", 1)[1] for name in _MAKE_MESH | _MESH | _ABSTRACT_MESH)
"""The last part of every call that makes a mesh: a module that spells none of them builds no mesh."""
_PARTITION_SPEC = frozenset(
    {"jax.sharding.PartitionSpec", "jax.P", "jax._src.partition_spec.PartitionSpec", "jax.experimental.PartitionSpec"}
)
_NAMED_SHARDING = frozenset(
    {"jax.sharding.NamedSharding", "jax.NamedSharding", "jax._src.named_sharding.NamedSharding"}
)
_DEVICE_LISTS = frozenset({"jax.devices", "jax.local_devices"})
_CREATE_DEVICE_MESH = frozenset(
    {"jax.experimental.mesh_utils.create_device_mesh", "jax._src.mesh_utils.create_device_mesh"}
)
_NUMPY_ARRAY = frozenset({"numpy.array", "numpy.asarray"})
_AXIS_TYPE_PREFIXES = ("jax.sharding.AxisType.", "jax._src.mesh.AxisType.")
_UNCONSTRAINED_SUFFIX = ".UNCONSTRAINED"

PLACEMENTS: frozenset[str] = frozenset(
    {"jax.device_put", "jax.lax.with_sharding_constraint", "jax.reshard", "jax.sharding.reshard"}
)
"""Calls that return their array argument with another sharding: same global shape and dtype."""

SHARDING_CONSTRUCTORS: frozenset[str] = (
    _MAKE_MESH | _MESH | _ABSTRACT_MESH | _PARTITION_SPEC | _NAMED_SHARDING | _DEVICE_LISTS | _CREATE_DEVICE_MESH
)
"""The callee names :func:`evaluate_call` builds a value for (``numpy.array`` of devices aside)."""


@dataclass(frozen=True, slots=True)
class DevicesValue(Value):
    """An array of devices: ``jax.devices()``, ``np.array(jax.devices()).reshape(4, 2)``, ``create_device_mesh``.

    Attributes:
        shape: The array's shape, ``None`` entries where unknown; ``(None,)`` for the flat list of all devices.
        all_devices: Whether it holds every device of the process (``jax.devices()`` reshaped), so its size
            is the device count.
        node: The call that built it.
    """

    shape: tuple[int | None, ...] | None
    all_devices: bool
    node: ast.AST | None = None

    @property
    def size(self) -> int | None:
        """The number of devices when every dimension is known."""
        if self.shape is None or any(d is None for d in self.shape):
            return None
        return math.prod(d for d in self.shape if d is not None)

    def call_method(self, name: str, args: Sequence[Value], keywords: Mapping[str, Value], node: ast.Call) -> Value:
        """``devices.reshape(...)`` gives the reshaped device array; any other method an unknown value."""
        if name == "reshape" and args and not keywords:
            return reshape_devices(self, args, node)
        return UNKNOWN


@dataclass(frozen=True, slots=True)
class MeshValue(Value):
    """A ``jax.make_mesh``, ``jax.sharding.Mesh`` or ``AbstractMesh``.

    Attributes:
        constructor: ``make_mesh``, ``Mesh`` or ``AbstractMesh``.
        axis_names: The axis names, or ``None`` when not literal.
        axis_sizes: One size per axis (``None`` where unknown), or ``None`` when even the rank is unknown.
        axis_types: ``Explicit``/``Auto``/``Manual`` per axis, or ``None`` when unknown.
        devices: The device array a ``Mesh`` was given, when known.
        node: The call that built it.
    """

    constructor: str
    axis_names: tuple[str, ...] | None
    axis_sizes: tuple[int | None, ...] | None
    axis_types: tuple[str, ...] | None
    devices: DevicesValue | None = None
    node: ast.AST | None = None

    def size(self, axis: str) -> int | None:
        """The size of mesh axis ``axis``, or ``None`` when the axis or its size is unknown."""
        if self.axis_names is None or self.axis_sizes is None or axis not in self.axis_names:
            return None
        position = self.axis_names.index(axis)
        return self.axis_sizes[position] if position < len(self.axis_sizes) else None

    @property
    def shape(self) -> dict[str, int] | None:
        """``{name: size}`` in axis order when every name and size is known."""
        if self.axis_names is None or self.axis_sizes is None or len(self.axis_names) != len(self.axis_sizes):
            return None
        if any(size is None for size in self.axis_sizes):
            return None
        return {name: size for name, size in zip(self.axis_names, self.axis_sizes, strict=True) if size is not None}

    @property
    def device_count(self) -> int | None:
        """The number of devices the mesh spans, when every size is known."""
        shape = self.shape
        return math.prod(shape.values()) if shape is not None else None

    def describe(self) -> str:
        """The mesh as JAX prints it: ``Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto))``."""
        names = self.axis_names or ()
        sizes = self.axis_sizes or ()
        axes = ", ".join(
            f"{name!r}: {size if size is not None else '?'}" for name, size in zip(names, sizes, strict=False)
        )
        types = ""
        if self.axis_types:
            types = f", axis_types=({', '.join(self.axis_types)}{',' if len(self.axis_types) == 1 else ''})"
        name = "AbstractMesh" if self.constructor == "AbstractMesh" else "Mesh"
        return f"{name}({axes}{types})"


@dataclass(frozen=True, slots=True)
class SpecEntry:
    """One entry of a PartitionSpec.

    Attributes:
        kind: ``replicated`` (``None``), ``axes`` (one name or a tuple of names), ``unconstrained``
            (``P.UNCONSTRAINED``) or ``unknown``.
        axes: The mesh axis names of an ``axes`` entry, in order.
    """

    kind: str
    axes: tuple[str, ...] = ()

    def describe(self) -> str:
        """The entry as JAX prints it inside ``P(...)``."""
        if self.kind == "replicated":
            return "None"
        if self.kind == "unconstrained":
            return "UNCONSTRAINED"
        if self.kind == "axes":
            if len(self.axes) == 1:
                return repr(self.axes[0])
            return "(" + ", ".join(repr(a) for a in self.axes) + ")"
        return "?"


@dataclass(frozen=True, slots=True)
class SpecValue(Value):
    """A ``PartitionSpec``: one entry per leading array dimension.

    Attributes:
        entries: The entries, or ``None`` when the spec is built from something not literal (``P(*axes)``).
        node: The call that built it.
    """

    entries: tuple[SpecEntry, ...] | None
    node: ast.AST | None = None

    @property
    def mesh_axes(self) -> tuple[str, ...]:
        """Every mesh axis name the spec uses, in order, repeats included."""
        return tuple(axis for entry in self.entries or () if entry.kind == "axes" for axis in entry.axes)

    def describe(self) -> str:
        """The spec as JAX prints it: ``P('x', None)``."""
        if self.entries is None:
            return "P(...)"
        return "P(" + ", ".join(entry.describe() for entry in self.entries) + ")"


@dataclass(frozen=True, slots=True)
class NamedShardingValue(Value):
    """``NamedSharding(mesh, spec)``.

    Attributes:
        mesh: The mesh's value (a :class:`MeshValue` when known).
        spec: The spec's value (a :class:`SpecValue` when known).
        node: The call that built it.
    """

    mesh: Value
    spec: Value
    node: ast.AST | None = None


def evaluate_call(
    qualname: str,
    node: ast.Call,
    args: Sequence[Value],
    keywords: Mapping[str, Value],
) -> Value | None:
    """The value of a call of sharding API ``qualname``, or ``None`` when it is not one modelled here.

    Args:
        qualname: The callee's qualified name.
        node: The call.
        args: The values of the positional arguments.
        keywords: The values of the keyword arguments.
    """
    bound = CallArguments(node, args, keywords)
    if qualname in _PARTITION_SPEC:
        if len(bound.exprs) != len(node.args):
            return SpecValue(None, node)
        return SpecValue(tuple(spec_entry(value) for value in bound.args), node)
    if qualname in _NAMED_SHARDING:
        mesh, spec = bound.get(0, "mesh"), bound.get(1, "spec")
        return NamedShardingValue(mesh or UNKNOWN, spec or UNKNOWN, node)
    if qualname in _MAKE_MESH:
        return _make_mesh(node, bound)
    if qualname in _MESH:
        return _mesh(node, bound)
    if qualname in _ABSTRACT_MESH:
        sizes = _ints(bound.get(0, "axis_sizes"))
        names = axis_names(bound.get(1, "axis_names"))
        return MeshValue(
            "AbstractMesh", names, sizes, _axis_types(bound.get(2, "axis_types"), names, "Auto"), None, node
        )
    if qualname in _DEVICE_LISTS:
        return DevicesValue((None,), True, node) if not node.args and not node.keywords else None
    if qualname in _CREATE_DEVICE_MESH:
        shape = _ints(bound.get(0, "mesh_shape"))
        return DevicesValue(shape, bound.get(1, "devices") is None, node)
    if qualname in _NUMPY_ARRAY and len(args) == 1 and isinstance(args[0], DevicesValue):
        return args[0]
    return None


def reshape_devices(devices: DevicesValue, args: Sequence[Value], node: ast.Call) -> DevicesValue:
    """``devices.reshape(*args)``: the new shape when every size is a literal (one ``-1`` allowed)."""
    sizes = _ints(args[0]) if len(args) == 1 and isinstance(args[0], Seq) else _ints(Seq(tuple(args)))
    if sizes is None or any(size is None for size in sizes):
        return DevicesValue(None, devices.all_devices, node)
    known = [size for size in sizes if size is not None]
    if known.count(-1) == 1:
        total = devices.size
        rest = math.prod(size for size in known if size != -1)
        if total is None or rest == 0 or total % rest:
            return DevicesValue(tuple(None if size == -1 else size for size in known), devices.all_devices, node)
        return DevicesValue(tuple(total // rest if size == -1 else size for size in known), devices.all_devices, node)
    return DevicesValue(tuple(known), devices.all_devices, node)


def spec_entry(value: Value) -> SpecEntry:
    """One ``PartitionSpec`` entry from its value: ``None``, a name, a tuple of names or ``P.UNCONSTRAINED``."""
    if isinstance(value, Const):
        if value.value is None:
            return SpecEntry("replicated")
        if isinstance(value.value, str):
            return SpecEntry("axes", (value.value,))
        return SpecEntry("unknown")
    if isinstance(value, Seq):
        names = [item.value for item in value.items if isinstance(item, Const) and isinstance(item.value, str)]
        if len(names) != len(value.items):
            return SpecEntry("unknown")
        return SpecEntry("axes", tuple(names)) if names else SpecEntry("replicated")
    if isinstance(value, ModuleRef) and value.qualname.endswith(_UNCONSTRAINED_SUFFIX):
        return SpecEntry("unconstrained")
    return SpecEntry("unknown")


def axis_names(value: Value | None) -> tuple[str, ...] | None:
    """Axis names from a literal: one string, or a tuple/list of strings."""
    if isinstance(value, Const) and isinstance(value.value, str):
        return (value.value,)
    if isinstance(value, Seq) and all(isinstance(i, Const) and isinstance(i.value, str) for i in value.items):
        return tuple(str(i.value) for i in value.items if isinstance(i, Const))
    return None


def _ints(value: Value | None) -> tuple[int | None, ...] | None:
    """Sizes from a literal sequence; ``None`` entries where a size is not a literal int."""
    if isinstance(value, Const) and isinstance(value.value, int) and not isinstance(value.value, bool):
        return (value.value,)
    if not isinstance(value, Seq):
        return None
    return tuple(
        item.value
        if isinstance(item, Const) and isinstance(item.value, int) and not isinstance(item.value, bool)
        else None
        for item in value.items
    )


def _axis_types(value: Value | None, names: tuple[str, ...] | None, default: str) -> tuple[str, ...] | None:
    """``AxisType.Explicit``-style names per axis; the constructor's default when the argument is absent."""
    if value is None or (isinstance(value, Const) and value.value is None):
        return (default,) * len(names) if names is not None else None
    items = value.items if isinstance(value, Seq) else (value,)
    types = []
    for item in items:
        if not isinstance(item, ModuleRef) or not item.qualname.startswith(_AXIS_TYPE_PREFIXES):
            return None
        types.append(item.qualname.rsplit(".", 1)[1])
    return tuple(types)


def _make_mesh(node: ast.Call, bound: CallArguments) -> MeshValue:
    sizes = _ints(bound.get(0, "axis_shapes"))
    names = axis_names(bound.get(1, "axis_names"))
    # JAX 0.9 made Explicit the default axis type of make_mesh (Mesh(...) still defaults to Auto).
    return MeshValue("make_mesh", names, sizes, _axis_types(bound.get(2, "axis_types"), names, "Explicit"), None, node)


def _mesh(node: ast.Call, bound: CallArguments) -> MeshValue:
    devices = bound.get(0, "devices")
    names = axis_names(bound.get(1, "axis_names"))
    device_value = devices if isinstance(devices, DevicesValue) else None
    sizes = device_value.shape if device_value is not None else None
    return MeshValue("Mesh", names, sizes, _axis_types(bound.get(2, "axis_types"), names, "Auto"), device_value, node)


def _evaluate(call: ApiCall) -> Value | None:
    value = evaluate_call(call.qualname, call.node, call.args, call.keywords)
    if value is None and call.qualname in PLACEMENTS and call.args and isinstance(call.args[0], Array):
        # Placing an array changes where its shards live, not its global shape or dtype.
        array = call.args[0]
        return Array(array.shape, array.dtype, array.weak_type, array.traced, "jax")
    return value


SHARDING_VALUES = InterpreterExtension("sharding", evaluate_call=_evaluate)
"""What the interpreter learns from this module: meshes, specs and shardings, and placements keeping shapes."""
