"""torch_xla SPMD values: meshes, partition specs and tensor shapes, as far as the source fixes them.

``xs.Mesh(device_ids, mesh_shape, axis_names)`` and ``xs.mark_sharding(t, mesh, spec)`` check their
arguments with Python ``assert``\\ s when they run (``torch_xla/distributed/spmd/xla_sharding.py``
@ v2.9.0). The TX3xx rules repeat those checks statically, so this module evaluates the arguments:

- integers: literals, arithmetic on them, and ``xr.global_runtime_device_count()`` when the
  ``device-count`` setting gives it;
- device ids: literal lists, ``range(n)``, ``np.arange(n)``, ``np.array(range(n))`` and the like;
  ids built from the global device count use every device by construction;
- meshes: ``Mesh``, ``get_1d_mesh`` and ``HybridMesh`` calls, as a shape (entries may be unknown)
  and axis names;
- partition specs: tuples and lists whose entries are ``None``, an axis name, an axis index, or a
  tuple of those;
- tensor shapes: ``torch.randn(8, 4)``, ``torch.zeros((8, 4), device=...)``, and methods that keep
  the shape (``.to(device)``, ``.float()``...); the ``weight`` and ``bias`` of a ``nn.Linear``,
  ``nn.Embedding`` or ``nn.Conv1d/2d/3d`` built with known sizes (``nn.Linear(32, 10).weight`` is
  ``(10, 32)``), reached through ``nn.Sequential(...)[i]`` or the attributes of a model built from
  a class of the file (``model.fc.weight``, where ``__init__`` sets ``self.fc = nn.Linear(64, 10)``);
  the parameter of a ``for name, param in model.named_parameters():`` loop over such a
  ``Sequential``, where the ``if`` tests around the use that the name alone decides
  (``name.endswith("weight")``, ``"bias" in name``) leave parameters of one rank (the sizes the
  parameters disagree on unknown);
- instances of the file's classes: an attribute set once (``self.mesh = xs.Mesh(...)``), and the
  fields of a dataclass (the value passed to the constructor, else the default).

Names are followed through their one ``=`` binding (in the function or the module); a parameter
takes the value every call in the file passes for it (or its default when no call passes it); a
name bound more than once, a parameter the calls disagree on, or a list that is changed in place is
unknown, and the rules stay silent on unknown values.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from dataclasses import dataclass

from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.models.torch_xla.model import model_for
from xlalens.analyzers.semantics.loops import parents
from xlalens.analyzers.semantics.names import BindingKind, ModuleIndex, Scope

_MAX_DEPTH = 24
_MAX_IDS = 4096
_IN_PLACE_CHANGES = frozenset(
    {
        "append",
        "extend",
        "insert",
        "pop",
        "remove",
        "clear",
        "sort",
        "reverse",
        "resize_",
        "resize_as_",
        "unsqueeze_",
        "squeeze_",
        "set_",
        "as_strided_",
    }
)
"""Methods that change a list, an id array or a tensor's shape in place."""


class _Unknown:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
"""A value the evaluation cannot fix."""


@dataclass(frozen=True, slots=True)
class Items:
    """A tuple or list literal (or one a name holds), item by item."""

    values: tuple[object, ...]
    is_list: bool = False


@dataclass(frozen=True, slots=True)
class DeviceCount:
    """``xr.global_runtime_device_count()``: ``count`` when the ``device-count`` setting is given."""

    count: int | None


@dataclass(frozen=True, slots=True)
class DeviceIds:
    """The ``device_ids`` of a mesh.

    Attributes:
        count: How many ids there are, when known.
        ids: The ids themselves, when known.
        all_devices: Built from ``xr.global_runtime_device_count()``, so the count is right whatever
            the machine has.
    """

    count: int | None
    ids: tuple[int, ...] | None = None
    all_devices: bool = False


@dataclass(frozen=True, slots=True)
class SpmdMesh:
    """A mesh as far as it is known.

    Attributes:
        shape: The size of each axis (None where unknown), or None when even the rank is unknown.
        axis_names: The axis names; None for a mesh made without names.
        names_known: Whether ``axis_names`` is known at all.
    """

    shape: tuple[int | None, ...] | None
    axis_names: tuple[str, ...] | None
    names_known: bool

    @property
    def rank(self) -> int | None:
        """The number of mesh axes, when known."""
        if self.shape is not None:
            return len(self.shape)
        if self.names_known and self.axis_names is not None:
            return len(self.axis_names)
        return None

    def describe(self) -> str:
        """How messages show the mesh.

        Examples:
            >>> SpmdMesh((4, 2), ("x", "y"), True).describe()
            "mesh ('x': 4, 'y': 2)"
            >>> SpmdMesh((None, 2), None, True).describe()
            'mesh of shape (?, 2) without axis names'
        """
        sizes = ["?" if size is None else str(size) for size in self.shape or ()]
        if self.names_known and self.axis_names is not None and len(sizes) == len(self.axis_names):
            return "mesh (" + ", ".join(f"{n!r}: {s}" for n, s in zip(self.axis_names, sizes, strict=True)) + ")"
        if self.names_known and self.axis_names is not None:
            return f"mesh with axes {self.axis_names!r}"
        shape = "(" + ", ".join(sizes) + ("," if len(sizes) == 1 else "") + ")"
        return f"mesh of shape {shape}" + (" without axis names" if self.names_known else "")

    def axis_index(self, name: str) -> int | None:
        """The index of axis ``name``, or None when the mesh has no such axis (or names are unknown)."""
        if not self.names_known or self.axis_names is None or name not in self.axis_names:
            return None
        return self.axis_names.index(name)


@dataclass(frozen=True, slots=True)
class TensorShape:
    """A tensor whose shape the source fixes (entries None where unknown)."""

    shape: tuple[int | None, ...]

    def describe(self) -> str:
        """The shape as torch prints it, ``(8, 4)``.

        Examples:
            >>> TensorShape((8, None)).describe()
            '(8, ?)'
        """
        return (
            "("
            + ", ".join("?" if d is None else str(d) for d in self.shape)
            + ("," if len(self.shape) == 1 else "")
            + ")"
        )


@dataclass(frozen=True, slots=True)
class Instance:
    """An instance of a class of this file (``Classifier()``, ``self`` in its methods).

    Attributes:
        cls: The class.
        call: The constructor call, when known (a dataclass's fields come from it).
        scope: The scope of that call.
    """

    cls: ast.ClassDef
    call: ast.Call | None = None
    scope: Scope | None = None


@dataclass(frozen=True, slots=True)
class Layers:
    """``nn.Sequential(a, b, c)``: its layers, as values."""

    items: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class LayerParameters:
    """A ``torch.nn.Linear`` or ``torch.nn.Embedding`` built with literal sizes: its parameters' shapes."""

    parameters: tuple[tuple[str, TensorShape], ...]

    def parameter(self, name: str) -> TensorShape | None:
        """The shape of parameter ``name`` (``weight``, ``bias``), if the layer has it."""
        return next((shape for key, shape in self.parameters if key == name), None)


def product(sizes: tuple[int | None, ...]) -> int | None:
    """The number of devices a mesh shape needs, when every size is known.

    Examples:
        >>> product((4, 2))
        8
        >>> product((None, 2)) is None
        True
    """
    if any(size is None for size in sizes):
        return None
    return math.prod(size for size in sizes if size is not None)


def format_spec(entries: tuple[object, ...]) -> str:
    """A spec as Python prints the tuple.

    Examples:
        >>> format_spec(("x", None))
        "('x', None)"
        >>> format_spec((("x", "y"),))
        "(('x', 'y'),)"
    """
    return repr(tuple(_plain(entry) for entry in entries))


def _plain(entry: object) -> object:
    if isinstance(entry, Items):
        return tuple(_plain(item) for item in entry.values)
    return "?" if entry is UNKNOWN else entry


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class SpmdModel:
    """Evaluates SPMD arguments of one module.

    Args:
        index: The module's scopes and names.
        device_count: The ``device-count`` setting, if given.
    """

    def __init__(self, index: ModuleIndex, device_count: int | None) -> None:
        self.index = index
        self.device_count = device_count
        self._cache: dict[tuple[int, int], object] = {}
        self._assignments = self._collect_assignments(index.tree)
        self._mutated = self._collect_mutated(index.tree)
        self._call_sites: dict[int, list[tuple[ast.Call, Scope, int]]] | None = None

    @staticmethod
    def _collect_assignments(tree: ast.Module) -> dict[int, ast.expr]:
        found: dict[int, ast.expr] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found[id(target)] = node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
                found[id(node.target)] = node.value
        return found

    @staticmethod
    def _collect_mutated(tree: ast.Module) -> frozenset[str]:
        """Names whose object may change in place (``spec.append(None)``, ``spec[0] = 'x'``, ``t.unsqueeze_(0)``)."""
        found = set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute | ast.Subscript) or not isinstance(node.value, ast.Name):
                continue
            called = isinstance(node, ast.Attribute) and node.attr in _IN_PLACE_CHANGES
            if called or isinstance(node.ctx, ast.Store | ast.Del):
                found.add(node.value.id)
        return frozenset(found)

    # -- entry points -------------------------------------------------------------------------

    def value(self, node: ast.expr, scope: Scope) -> object:
        """The value of ``node`` evaluated in ``scope``: a constant, :class:`Items`, a mesh, ids, a shape or UNKNOWN."""
        return self._eval(node, scope, 0)

    def argument(self, call: ast.Call, position: int | None, name: str) -> ast.expr | None:
        """The expression passed as parameter ``name`` (at ``position``) of ``call``; None if absent or starred."""
        for keyword in call.keywords:
            if keyword.arg == name:
                return keyword.value
            if keyword.arg is None:
                return None
        args = call.args
        if position is None or any(isinstance(a, ast.Starred) for a in args[: position + 1]):
            return None
        return args[position] if position < len(args) else None

    # -- evaluation ---------------------------------------------------------------------------

    def _eval(self, node: ast.expr, scope: Scope, depth: int) -> object:
        if depth > _MAX_DEPTH:
            return UNKNOWN
        key = (id(node), id(scope))
        if key not in self._cache:
            self._cache[key] = UNKNOWN  # a name defined through itself stays unknown
            self._cache[key] = self._evaluate(node, scope, depth + 1)
        return self._cache[key]

    def _evaluate(self, node: ast.expr, scope: Scope, depth: int) -> object:
        if isinstance(node, ast.Constant):
            value = node.value
            return value if value is None or isinstance(value, int | str) else UNKNOWN
        if isinstance(node, ast.Tuple | ast.List):
            if any(isinstance(item, ast.Starred) for item in node.elts):
                return UNKNOWN
            return Items(tuple(self._eval(item, scope, depth) for item in node.elts), isinstance(node, ast.List))
        if isinstance(node, ast.Name):
            return self._name(node.id, scope, depth, node)
        if isinstance(node, ast.BinOp):
            return self._arithmetic(node, scope, depth)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            operand = self._int(self._eval(node.operand, scope, depth))
            return UNKNOWN if operand is None else -operand
        if isinstance(node, ast.Call):
            return self._call(node, scope, depth)
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            base = self._eval(node.value, scope, depth)
            if isinstance(base, LayerParameters):
                return base.parameter(node.attr) or UNKNOWN
            if isinstance(base, Instance):
                return self._attribute(base, node.attr, depth)
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            base = self._eval(node.value, scope, depth)
            position = self._int(self._eval(node.slice, scope, depth))
            items = base.items if isinstance(base, Layers) else base.values if isinstance(base, Items) else None
            if items is not None and position is not None and -len(items) <= position < len(items):
                return items[position]
        return UNKNOWN

    def _name(self, name: str, scope: Scope, depth: int, use: ast.Name | None = None) -> object:
        found = self.index.lookup(name, scope)
        if found is None:
            return UNKNOWN
        owner, bindings = found
        target = self._loop_target(name, use, owner, bindings)
        if target is not None:
            return self._loop_parameter(target, use, owner, depth)
        if len(bindings) == 1 and bindings[0].kind is BindingKind.PARAM and not owner.is_class:
            return self._parameter(name, owner, depth)
        if len(bindings) != 1 or bindings[0].kind is not BindingKind.ASSIGN or owner.is_class:
            return UNKNOWN
        value = self._assignments.get(id(bindings[0].node))
        if value is None:
            return UNKNOWN
        result = self._eval(value, owner, depth)
        if isinstance(result, Items | DeviceIds | TensorShape | LayerParameters) and name in self._mutated:
            return UNKNOWN
        return result

    def _loop_target(self, name: str, use: ast.Name | None, owner: Scope, bindings: list) -> ast.Name | None:
        """The target ``name`` of the innermost ``for`` loop around ``use`` that binds it, when nothing in
        that loop's body binds it again."""
        if use is None:
            return None
        parent_of = parents(self.index, owner)
        current: ast.AST | None = parent_of.get(id(use))
        while current is not None and not isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            if isinstance(current, ast.For):
                stored = [n for n in ast.walk(current.target) if isinstance(n, ast.Name) and n.id == name]
                if stored:
                    inside = {id(n) for statement in current.body for n in ast.walk(statement)}
                    rebound = any(id(b.node) in inside for b in bindings)
                    return None if rebound or len(stored) != 1 else stored[0]
            current = parent_of.get(id(current))
        return None

    def _loop_parameter(self, target: ast.Name, use: ast.Name, owner: Scope, depth: int) -> object:
        """``param`` of ``for name, param in model.named_parameters():`` (or ``for param in model.parameters()``)
        at ``use``: the shape the parameters that reach it share, after the ``if`` tests on ``name``."""
        parent_of = parents(self.index, owner)
        holder = parent_of.get(id(target))
        pair = holder if isinstance(holder, ast.Tuple) else None
        loop = parent_of.get(id(pair)) if pair is not None else holder
        if not isinstance(loop, ast.For) or loop.target is not (pair or target):
            return UNKNOWN
        iterated = loop.iter
        if not (
            isinstance(iterated, ast.Call)
            and isinstance(iterated.func, ast.Attribute)
            and not iterated.args
            and not iterated.keywords
        ):
            return UNKNOWN
        named = iterated.func.attr == "named_parameters"
        if not named and iterated.func.attr != "parameters":
            return UNKNOWN
        if named != (pair is not None and len(pair.elts) == 2 and pair.elts[1] is target):
            return UNKNOWN
        listed = self._parameters_of(self._eval(iterated.func.value, owner, depth))
        if listed is None:
            return UNKNOWN
        key = pair.elts[0] if pair is not None else None
        current: ast.AST = use
        while current is not loop:
            parent = parent_of.get(id(current))
            if parent is None or isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                return UNKNOWN
            if isinstance(parent, ast.If) and current is not parent.test:
                test = _name_test(parent.test, key.id if isinstance(key, ast.Name) else None)
                if test is None:
                    return UNKNOWN
                taken = any(current is s for s in parent.body)
                listed = [(name, shape) for name, shape in listed if test(name) == taken]
            current = parent
        ranks = {len(shape.shape) for _, shape in listed}
        if len(ranks) != 1:
            return UNKNOWN
        sizes = zip(*(shape.shape for _, shape in listed), strict=True)
        return TensorShape(tuple(first if all(d == first for d in rest) else None for first, *rest in sizes))

    def _parameters_of(self, value: object) -> list[tuple[str, TensorShape]] | None:
        """``named_parameters()`` of a layer or a ``Sequential`` of known layers, in order; None when unknown."""
        if isinstance(value, LayerParameters):
            return list(value.parameters)
        if not isinstance(value, Layers):
            return None
        found = []
        for position, layer in enumerate(value.items):
            inner = self._parameters_of(layer)
            if inner is None:
                return None
            found.extend((f"{position}.{name}", shape) for name, shape in inner)
        return found

    def _parameter(self, name: str, owner: Scope, depth: int) -> object:
        """A parameter: ``self`` of a method, or what every call in the file passes (else the default)."""
        function = owner.node
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            return UNKNOWN
        positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
        cls = owner.parent.node if owner.parent is not None else None
        if isinstance(cls, ast.ClassDef) and positional[:1] == [name] and not function.decorator_list:
            return Instance(cls)
        values = []
        for call, scope, skipped in self._calls_of(function):
            passed = self.argument(call, positional.index(name) - skipped if name in positional else None, name)
            if passed is None and any(isinstance(a, ast.Starred) for a in call.args):
                return UNKNOWN
            values.append(self._eval(passed, scope, depth) if passed is not None else self._default(function, name))
        if not values:
            values = [self._default(function, name)]
        first = values[0]
        return first if all(v == first for v in values) else UNKNOWN

    def _default(self, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> object:
        arguments = function.args
        every = [*arguments.posonlyargs, *arguments.args]
        pairs = list(zip(every[len(every) - len(arguments.defaults) :], arguments.defaults, strict=True))
        pairs += [(a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d is not None]
        default = next((d for a, d in pairs if a.arg == name), None)
        if isinstance(default, ast.Constant) and (default.value is None or isinstance(default.value, int | str)):
            return default.value
        return UNKNOWN

    def _calls_of(self, function: ast.AST) -> list[tuple[ast.Call, Scope, int]]:
        """Every call of a local function (or constructor call, for ``__init__``) in the file."""
        if self._call_sites is None:
            found = model_for(self.index)
            sites: dict[int, list[tuple[ast.Call, Scope, int]]] = {}
            for run in found.runs.values():
                for call, scope in run.calls:
                    callee = found.callee(call, scope)
                    if callee is not None:
                        sites.setdefault(id(callee[0]), []).append((call, scope, callee[1]))
            self._call_sites = sites
        return self._call_sites.get(id(function), [])

    def _attribute(self, instance: Instance, name: str, depth: int) -> object:
        """An attribute of an instance: a dataclass field, or the one value the class's methods assign it."""
        cls = instance.cls
        fields = [s for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
        field_names = [f.target.id for f in fields]  # type: ignore[union-attr]
        if _is_dataclass(cls) and name in field_names:
            call, scope = instance.call, instance.scope
            if call is not None and scope is not None:
                passed = self.argument(call, field_names.index(name), name)
                if passed is not None:
                    return self._eval(passed, scope, depth)
                if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                    return UNKNOWN
            default = fields[field_names.index(name)].value
            class_scope = self.index.scopes.get(id(cls))
            return self._eval(default, class_scope, depth) if default is not None and class_scope else UNKNOWN
        assigned = []
        for method in cls.body:
            if not isinstance(method, ast.FunctionDef) or not method.args.args:
                continue
            receiver = method.args.args[0].arg
            for node in ast.walk(method):
                targets = node.targets if isinstance(node, ast.Assign) else []
                for target in targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and target.attr == name
                        and isinstance(target.value, ast.Name)
                        and target.value.id == receiver
                    ):
                        assigned.append((node.value, method))  # type: ignore[attr-defined]
        if len(assigned) != 1:
            return UNKNOWN
        value, method = assigned[0]
        method_scope = self.index.scopes.get(id(method))
        return self._eval(value, method_scope, depth) if method_scope is not None else UNKNOWN

    def size(self, value: object) -> int | None:
        """An evaluated integer (a literal, or the device count when the setting gives it), else None."""
        return self._int(value)

    def _int(self, value: object) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, DeviceCount):
            return value.count
        return None

    def _arithmetic(self, node: ast.BinOp, scope: Scope, depth: int) -> object:
        left = self._int(self._eval(node.left, scope, depth))
        right = self._int(self._eval(node.right, scope, depth))
        if left is None or right is None:
            return UNKNOWN
        op = node.op
        if isinstance(op, ast.Add):
            return left + right
        if isinstance(op, ast.Sub):
            return left - right
        if isinstance(op, ast.Mult):
            return left * right
        if isinstance(op, ast.FloorDiv) and right:
            return left // right
        if isinstance(op, ast.Mod) and right:
            return left % right
        return UNKNOWN

    def _call(self, node: ast.Call, scope: Scope, depth: int) -> object:
        qualname = self.index.qualname(node.func, scope)
        if qualname is None:
            if isinstance(node.func, ast.Attribute) and node.func.attr in tx.SHAPE_KEEPING_METHODS:
                receiver = self._eval(node.func.value, scope, depth)
                kept = TensorShape | LayerParameters | Instance | Layers
                return receiver if isinstance(receiver, kept) else UNKNOWN
            if isinstance(node.func, ast.Name):
                found = self.index.lookup(node.func.id, scope)
                if found is not None and len(found[1]) == 1 and found[1][0].kind is BindingKind.CLASS:
                    cls = found[1][0].node
                    return Instance(cls, node, scope) if isinstance(cls, ast.ClassDef) else UNKNOWN
            return UNKNOWN
        if qualname == tx.SEQUENTIAL:
            if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
                return UNKNOWN
            return Layers(tuple(self._eval(a, scope, depth) for a in node.args))
        if qualname in tx.CONV_LAYERS:
            return self._conv(tx.CONV_LAYERS[qualname], node, scope, depth)
        if qualname in tx.GLOBAL_DEVICE_COUNT and not node.args and not node.keywords:
            return DeviceCount(self.device_count)
        if qualname in tx.SPMD_MESH:
            return self.mesh_of_call(node, scope, depth)
        if qualname in tx.SPMD_1D_MESH:
            return self._mesh_1d(node, scope, depth)
        if qualname in tx.SPMD_HYBRID_MESH:
            return self._hybrid_mesh(node, scope, depth)
        if qualname in tx.TENSOR_SIZE_FACTORIES:
            return self._tensor(node, scope, depth)
        if qualname in tx.SIZED_LAYERS:
            return self._layer(qualname, node, scope, depth)
        if qualname in tx.PARAMETER_FREE_LAYERS:
            return LayerParameters(())
        if qualname == "torch.nn.Parameter" and len(node.args) >= 1:
            value = self._eval(node.args[0], scope, depth)
            return value if isinstance(value, TensorShape) else UNKNOWN
        if qualname == "builtins.len" and len(node.args) == 1 and not node.keywords:
            value = self._eval(node.args[0], scope, depth)
            if isinstance(value, Items):
                return len(value.values)
            if isinstance(value, DeviceIds) and value.count is not None:
                return value.count
            return UNKNOWN
        return self._device_ids(qualname, node, scope, depth)

    def _device_ids(self, qualname: str, node: ast.Call, scope: Scope, depth: int) -> object:
        if node.keywords and qualname not in ("numpy.array", "numpy.asarray"):
            return UNKNOWN
        args = [self._eval(arg, scope, depth) for arg in node.args]
        if qualname in ("builtins.range", "numpy.arange") and 1 <= len(args) <= 2:
            all_devices = len(args) == 1 and isinstance(args[0], DeviceCount)
            bounds = [self._int(arg) for arg in args]
            if any(bound is None for bound in bounds):
                return DeviceIds(None, all_devices=all_devices)
            start, stop = (0, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])
            assert start is not None and stop is not None
            count = max(0, stop - start)
            ids = tuple(range(start, stop)) if count <= _MAX_IDS else None
            return DeviceIds(count, ids, all_devices)
        if qualname in ("builtins.list", "builtins.tuple", "numpy.array", "numpy.asarray") and len(args) == 1:
            return self._ids_of(args[0]) or UNKNOWN
        return UNKNOWN

    def _ids_of(self, value: object) -> DeviceIds | None:
        if isinstance(value, DeviceIds):
            return value
        if isinstance(value, Items):
            ints = [self._int(item) for item in value.values]
            known = None if any(i is None for i in ints) else tuple(i for i in ints if i is not None)
            return DeviceIds(len(value.values), known)
        return None

    def _shape(self, value: object) -> tuple[int | None, ...] | None:
        if not isinstance(value, Items):
            return None
        return tuple(self._int(item) for item in value.values)

    def _names(self, value: object) -> tuple[bool, tuple[str, ...] | None]:
        """Whether the axis names are known, and the names (None for a mesh without names)."""
        if value is None:
            return True, None
        if isinstance(value, Items) and all(isinstance(item, str) for item in value.values):
            return True, tuple(str(item) for item in value.values)
        return False, None

    def mesh_of_call(self, node: ast.Call, scope: Scope, depth: int = 0) -> SpmdMesh:
        """The mesh an ``xs.Mesh(...)`` call builds."""
        shape_expr = self.argument(node, 1, "mesh_shape")
        names_expr = self.argument(node, 2, "axis_names")
        shape = None if shape_expr is None else self._shape(self._eval(shape_expr, scope, depth))
        if names_expr is None:
            spread = any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords)
            return SpmdMesh(shape, None, not spread and len(node.args) <= 2)
        known, names = self._names(self._eval(names_expr, scope, depth))
        return SpmdMesh(shape, names, known)

    def ids_of_call(self, node: ast.Call, scope: Scope) -> DeviceIds | None:
        """The device ids an ``xs.Mesh(...)`` call is given, when the source fixes their number."""
        expr = self.argument(node, 0, "device_ids")
        return None if expr is None else self._ids_of(self._eval(expr, scope, 0))

    def _mesh_1d(self, node: ast.Call, scope: Scope, depth: int) -> object:
        expr = self.argument(node, 0, "axis_name")
        if expr is None:
            known = not node.keywords and not node.args
            return SpmdMesh((self.device_count,), None, known)
        name = self._eval(expr, scope, depth)
        if name is None:
            return SpmdMesh((self.device_count,), None, True)
        if isinstance(name, str):
            return SpmdMesh((self.device_count,), (name,), True)
        return SpmdMesh((self.device_count,), None, False)

    def hybrid_shapes(
        self, node: ast.Call, scope: Scope
    ) -> tuple[tuple[int | None, ...] | None, tuple[int | None, ...] | None, bool]:
        """The ICI and DCN shapes of a ``HybridMesh(...)`` call, and whether the DCN shape was given."""
        ici_expr = self.argument(node, None, "ici_mesh_shape")
        dcn_expr = self.argument(node, None, "dcn_mesh_shape")
        ici = None if ici_expr is None else self._shape(self._eval(ici_expr, scope, 0))
        if dcn_expr is None or (isinstance(dcn_expr, ast.Constant) and dcn_expr.value is None):
            return ici, None if ici is None else tuple(1 for _ in ici), False
        return ici, self._shape(self._eval(dcn_expr, scope, 0)), True

    def _hybrid_mesh(self, node: ast.Call, scope: Scope, depth: int) -> object:
        if node.args:
            return UNKNOWN
        ici, dcn, _ = self.hybrid_shapes(node, scope)
        shape = None
        if ici is not None and dcn is not None and len(ici) == len(dcn):
            shape = tuple(None if a is None or b is None else a * b for a, b in zip(ici, dcn, strict=True))
        names_expr = self.argument(node, None, "axis_names")
        if names_expr is None:
            return SpmdMesh(shape, None, not any(k.arg is None for k in node.keywords))
        known, names = self._names(self._eval(names_expr, scope, depth))
        return SpmdMesh(shape, names, known)

    def _layer(self, qualname: str, node: ast.Call, scope: Scope, depth: int) -> object:
        first_name, second_name = tx.SIZED_LAYERS[qualname]
        first_expr = self.argument(node, 0, first_name)
        second_expr = self.argument(node, 1, second_name)
        if first_expr is None or second_expr is None:
            return UNKNOWN
        first = self._int(self._eval(first_expr, scope, depth))
        second = self._int(self._eval(second_expr, scope, depth))
        if qualname.endswith("Embedding"):
            return LayerParameters((("weight", TensorShape((first, second))),))
        parameters: list[tuple[str, TensorShape]] = [("weight", TensorShape((second, first)))]
        bias = self.argument(node, 2, "bias")
        if bias is None or (isinstance(bias, ast.Constant) and bias.value is True):
            parameters.append(("bias", TensorShape((second,))))
        return LayerParameters(tuple(parameters))

    def _conv(self, spatial: int, node: ast.Call, scope: Scope, depth: int) -> object:
        """``nn.Conv2d(in, out, k, ...)``: ``weight`` ``(out, in // groups, *k)``, ``bias`` ``(out,)``."""
        sizes = [self.argument(node, i, n) for i, n in enumerate(("in_channels", "out_channels", "kernel_size"))]
        if any(size is None for size in sizes):
            return UNKNOWN
        first, second, kernel = (self._eval(size, scope, depth) for size in sizes)  # type: ignore[arg-type]
        groups_expr = self.argument(node, 6, "groups")
        groups = self._int(self._eval(groups_expr, scope, depth)) if groups_expr is not None else 1
        in_channels, out_channels = self._int(first), self._int(second)
        kernel_sizes = self._shape(kernel) if isinstance(kernel, Items) else (self._int(kernel),) * spatial
        if len(kernel_sizes) != spatial:  # type: ignore[arg-type]
            return UNKNOWN
        per_group = in_channels // groups if in_channels is not None and groups else None
        parameters = [("weight", TensorShape((out_channels, per_group, *kernel_sizes)))]  # type: ignore[misc]
        bias = self.argument(node, 7, "bias")
        if bias is None or (isinstance(bias, ast.Constant) and bias.value is True):
            parameters.append(("bias", TensorShape((out_channels,))))
        return LayerParameters(tuple(parameters))

    def _tensor(self, node: ast.Call, scope: Scope, depth: int) -> object:
        size_expr = self.argument(node, None, "size")
        sizes = [size_expr] if size_expr is not None else list(node.args)
        if not sizes or any(isinstance(a, ast.Starred) for a in sizes):
            return UNKNOWN
        if len(sizes) == 1:
            single = self._eval(sizes[0], scope, depth)
            if isinstance(single, Items):
                return TensorShape(tuple(self._int(item) for item in single.values))
            if _is_int(single) or isinstance(single, DeviceCount):
                return TensorShape((self._int(single),))
            return UNKNOWN
        # Several positional sizes: each is one dimension (torch takes ``*size``), known or not.
        return TensorShape(tuple(self._int(self._eval(a, scope, depth)) for a in sizes))


@dataclass(frozen=True, slots=True)
class ShardingSite:
    """One ``xs.mark_sharding(t, mesh, partition_spec)`` call, with what is known of its arguments.

    Attributes:
        call: The call.
        tensor: The tensor's shape, when the source fixes it.
        mesh: The mesh, when the source fixes it.
        spec: The partition spec's entries, when it is a tuple or list of known length.
        spec_expr: The partition spec argument.
    """

    call: ast.Call
    tensor: TensorShape | None
    mesh: SpmdMesh | None
    spec: Items | None
    spec_expr: ast.expr

    def mesh_indices(self) -> list[tuple[object, int | None]]:
        """Every axis the spec names (tuple entries flattened), with its mesh axis index when known."""
        found: list[tuple[object, int | None]] = []
        for entry in self.spec.values if self.spec is not None else ():
            if isinstance(entry, Items) and entry.is_list:
                continue  # torch_xla rejects a list entry before it looks at the axes
            for axis in entry.values if isinstance(entry, Items) else (entry,):
                if isinstance(axis, str):
                    found.append((axis, None if self.mesh is None else self.mesh.axis_index(axis)))
                elif isinstance(axis, int) and not isinstance(axis, bool):
                    found.append((axis, axis))
        return found

    def translated(self) -> tuple[object, ...] | None:
        """The spec with names replaced by axis indices, as torch_xla prints it in its assertions.

        None when an entry is unknown, a list, nested, or names an axis the mesh does not have.
        """
        if self.spec is None or self.mesh is None:
            return None
        mesh = self.mesh

        def axis(value: object) -> object:
            if _is_int(value):
                return value
            index = mesh.axis_index(value) if isinstance(value, str) else None
            return UNKNOWN if index is None else index

        result: list[object] = []
        for entry in self.spec.values:
            if entry is None:
                result.append(None)
            elif isinstance(entry, Items):
                inner = tuple(axis(value) for value in entry.values)
                if entry.is_list or UNKNOWN in inner:
                    return None
                result.append(inner)
            elif (translated := axis(entry)) is not UNKNOWN:
                result.append(translated)
            else:
                return None
        return tuple(result)


def _name_test(test: ast.expr, key: str | None) -> Callable[[str], bool] | None:
    """What ``test`` says of a parameter name held by ``key``: ``key.endswith("weight")``, ``"bias" in key``,
    ``key == "0.weight"``, ``not ...``; None for a test that depends on anything else."""
    if key is None:
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _name_test(test.operand, key)
        return None if inner is None else lambda name: not inner(name)
    if (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Attribute)
        and test.func.attr in ("endswith", "startswith")
        and isinstance(test.func.value, ast.Name)
        and test.func.value.id == key
        and len(test.args) == 1
        and not test.keywords
        and isinstance(test.args[0], ast.Constant)
        and isinstance(test.args[0].value, str)
    ):
        text, method = test.args[0].value, test.func.attr
        return (lambda name: name.endswith(text)) if method == "endswith" else (lambda name: name.startswith(text))
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if (
            isinstance(op, ast.Eq | ast.NotEq)
            and isinstance(left, ast.Name)
            and left.id == key
            and not (isinstance(right, ast.Name) and right.id == key)
        ):
            left, right = right, left
        if not (isinstance(right, ast.Name) and right.id == key):
            return None
        if not (isinstance(left, ast.Constant) and isinstance(left.value, str)):
            return None
        text = left.value
        if isinstance(op, ast.In):
            return lambda name: text in name
        if isinstance(op, ast.NotIn):
            return lambda name: text not in name
        if isinstance(op, ast.Eq):
            return lambda name: name == text
        if isinstance(op, ast.NotEq):
            return lambda name: name != text
    return None


def _is_dataclass(cls: ast.ClassDef) -> bool:
    for decorator in cls.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (isinstance(target, ast.Name) and target.id == "dataclass") or (
            isinstance(target, ast.Attribute) and target.attr == "dataclass"
        ):
            return True
    return False


def sharding_site(model: SpmdModel, call: ast.Call, scope: Scope) -> ShardingSite | None:
    """What is known of a ``mark_sharding`` call's arguments (the caller has checked the callee)."""
    tensor_expr = model.argument(call, 0, "t")
    mesh_expr = model.argument(call, 1, "mesh")
    spec_expr = model.argument(call, 2, "partition_spec")
    if tensor_expr is None or mesh_expr is None or spec_expr is None:
        return None
    tensor = model.value(tensor_expr, scope)
    mesh = model.value(mesh_expr, scope)
    spec = model.value(spec_expr, scope)
    return ShardingSite(
        call,
        tensor if isinstance(tensor, TensorShape) else None,
        mesh if isinstance(mesh, SpmdMesh) else None,
        spec if isinstance(spec, Items) else None,
        spec_expr,
    )


def spmd_model(index: ModuleIndex, device_count: int | None) -> SpmdModel:
    """The module's SPMD model for the given ``device-count`` setting (built once per module)."""
    return index.derived(f"torch_xla_spmd:{device_count}", lambda built: SpmdModel(built, device_count))
