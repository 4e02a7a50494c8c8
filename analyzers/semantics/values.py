"""The abstract values the analyzer computes for expressions.

A small lattice with :data:`UNKNOWN` at the top: rules fire only on values they understand,
so anything the interpreter cannot follow becomes ``UNKNOWN`` and silences them.

- :class:`Const` — a Python constant (``3``, ``0.5``, ``"x"``, ``None``).
- :class:`Static` — a value known not to be traced whose exact value is unknown
  (``x.shape[0]`` when the shape is unknown, ``len(xs)``).
- :class:`Seq` and :class:`Dict` — tuples, lists and dicts of values (pytrees).
- :class:`Array` — an array as ``(shape, dtype, weak_type)`` plus whether it is traced and
  whether it is a JAX or a NumPy array.
- :class:`TracedTree` — a traced argument whose structure is unknown: a tracer, or a pytree
  of them (a dict of parameters, a dataclass…).
- :class:`FunctionRef` — a local function or lambda.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from xlalens.explainers.calculators import dtypes

Dim = int | None
"""An array dimension: a known size, or None when unknown."""


class Value:
    """Base of the lattice."""

    __slots__ = ()

    def is_traced_array(self) -> bool:
        """True when this is certainly a traced array (never for containers or unknowns)."""
        return False

    def may_be_traced(self) -> bool:
        """True when the value is or may contain a tracer."""
        return False

    def call_method(
        self, name: str, args: Sequence[Value], keywords: Mapping[str, Value], node: ast.Call
    ) -> Value | None:
        """The value of ``self.name(*args, **keywords)`` when this value's own type models its methods.

        Library objects a domain model defines (an array of devices) override it; ``None`` leaves the
        call to the interpreter's own rules for arrays and containers.
        """
        return None


class _Unknown(Value):
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"

    def may_be_traced(self) -> bool:
        return True


UNKNOWN: Value = _Unknown()
"""The top of the lattice: nothing is known."""


@dataclass(frozen=True, slots=True)
class Const(Value):
    """A Python constant."""

    value: object

    def __repr__(self) -> str:
        return f"Const({self.value!r})"


@dataclass(frozen=True, slots=True)
class Static(Value):
    """A value known to be static (not traced) whose exact value is unknown.

    ``kind`` names the Python type when known (``"int"``, ``"tuple"``, ``"dtype"``…).
    """

    kind: str | None = None


@dataclass(frozen=True, slots=True)
class Seq(Value):
    """A tuple or list of values."""

    items: tuple[Value, ...]
    is_list: bool = False

    def may_be_traced(self) -> bool:
        return any(item.may_be_traced() for item in self.items)


@dataclass(frozen=True, slots=True)
class Dict(Value):
    """A dict with constant keys."""

    keys: tuple[object, ...]
    values: tuple[Value, ...]

    def may_be_traced(self) -> bool:
        return any(item.may_be_traced() for item in self.values)


@dataclass(frozen=True, slots=True)
class Array(Value):
    """An array value.

    Attributes:
        shape: The dimensions, or None when even the rank is unknown.
        dtype: The dtype name (``"float32"``), or None when unknown.
        weak_type: Whether JAX treats the dtype as weak (from a Python scalar).
        traced: Whether the array is a tracer here.
        library: ``"jax"`` or ``"numpy"``.
    """

    shape: tuple[Dim, ...] | None = None
    dtype: str | None = None
    weak_type: bool = False
    traced: bool = False
    library: str = "jax"

    def is_traced_array(self) -> bool:
        return self.traced

    def may_be_traced(self) -> bool:
        return self.traced

    def describe(self) -> str:
        """JAX's short notation, e.g. ``float32[3,4]`` or ``~int32[]`` for a weak type."""
        return dtypes.aval(self.dtype, self.shape, self.weak_type, long=True)


@dataclass(frozen=True, slots=True)
class TracedTree(Value):
    """A traced argument of unknown structure.

    With ``arrays_only`` (``equinox.filter_jit``) only array leaves are traced, so Python
    scalars passed in stay static and comparisons on the value prove nothing.
    """

    param: str
    arrays_only: bool = False

    def may_be_traced(self) -> bool:
        return True


@dataclass(frozen=True, slots=True, eq=False)
class FunctionRef(Value):
    """A reference to a function or lambda defined in the analyzed file.

    ``bound`` counts the leading parameters already bound: 1 for a method reached as ``self.method``.
    """

    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
    bound: int = 0
    receiver: Value | None = None


@dataclass(frozen=True, slots=True, eq=False)
class ClassRef(Value):
    """A class defined in the analyzed file (calling it builds an :class:`Instance`)."""

    node: ast.ClassDef


@dataclass(frozen=True, slots=True)
class Instance(Value):
    """An object of a class defined in the analyzed file.

    Attributes:
        node: Its class.
        fields: The values its fields were built with, for dataclass-like classes built in view.
        traced: Whether it was passed into a transform, so its (non-static) array leaves are tracers.
        arrays_only: Whether only its arrays are traced (``equinox.filter_jit``), not its Python scalars.
        lifetime: ``outer`` when it was built outside any trace (so it outlives one: a tracer stored in
            it leaks), ``trace`` when built while a function was traced, ``unknown`` otherwise.
    """

    node: ast.ClassDef = field(compare=False)
    fields: tuple[tuple[str, Value], ...] | None = None
    traced: bool = False
    arrays_only: bool = False
    class_id: int = 0
    lifetime: str = "unknown"

    def may_be_traced(self) -> bool:
        return self.traced

    def field_value(self, name: str) -> Value | None:
        """The value field ``name`` was built with, if known."""
        return next((value for key, value in self.fields or () if key == name), None)


@dataclass(frozen=True, slots=True)
class Transformed(Value):
    """A function wrapped by a JAX transform: ``jax.value_and_grad(loss)``, ``jax.vmap(f, in_axes=0)``.

    Calling it runs ``function`` as the transform does; :func:`~.interpreter` knows what each returns.

    Attributes:
        transform: The transform's qualified name (``jax.value_and_grad``).
        function: The wrapped function (a ``FunctionRef`` or another ``Transformed``).
        options: The transform's literal keyword options (``argnums``, ``has_aux``), by name.
    """

    transform: str
    function: Value
    options: tuple[tuple[str, object], ...] = ()

    def option(self, name: str, default: object = None) -> object:
        """The literal value of option ``name``, or ``default``."""
        return next((value for key, value in self.options if key == name), default)


@dataclass(frozen=True, slots=True)
class LibraryObject(Value):
    """An object of a library class the interpreter knows by what calling it returns (a ``nnx.Linear``).

    Attributes:
        qualname: The class's qualified name.
        traced: Whether it was passed into a transform (its weights are tracers).
        callbacks: The module's functions it keeps, by the method that runs them
            (``update`` of an ``optax.GradientTransformation``).
    """

    qualname: str
    traced: bool = False
    callbacks: tuple[tuple[str, Value], ...] = ()

    def may_be_traced(self) -> bool:
        return self.traced


@dataclass(frozen=True, slots=True)
class VariableBox(Value):
    """A ``flax.nnx`` Variable (``nnx.Param``, ``nnx.BatchStat``...) around a value.

    Reading ``box[...]`` or ``box.value`` gives the value; writing into the box is how nnx updates its
    state (legal, unlike a write into a JAX array).

    Attributes:
        qualname: The Variable class.
        inner: The value it holds.
    """

    qualname: str
    inner: Value

    def may_be_traced(self) -> bool:
        return self.inner.may_be_traced()


@dataclass(frozen=True, slots=True)
class ModuleRef(Value):
    """A module or API object known by its qualified name (``jax.numpy``)."""

    qualname: str


def traced_copy(value: Value, param: str = "<argument>") -> Value:
    """What a value becomes when it is passed to a jitted function: every leaf a tracer.

    A Python number becomes a weakly typed scalar tracer (a bool a strong one); containers keep their
    structure; anything else is a traced tree of unknown structure.

    Examples:
        >>> traced_copy(Const(0.5)).describe(), traced_copy(Array((2,), "int32")).describe()
        ('~float32[]', 'int32[2]')
        >>> traced_copy(Seq((Const(True), Const(None)))).items[0].describe()
        'bool[]'
    """
    if isinstance(value, Array):
        return Array(value.shape, value.dtype, value.weak_type, True, "jax")
    if isinstance(value, Const):
        if value.value is None:
            return value
        dtype = dtypes.python_scalar_dtype(type(value.value).__name__)
        if dtype is not None:
            return Array((), dtype, dtype != "bool", True, "jax")
        return TracedTree(param)
    if isinstance(value, Seq):
        return Seq(tuple(traced_copy(item, param) for item in value.items), value.is_list)
    if isinstance(value, Dict):
        return Dict(value.keys, tuple(traced_copy(item, param) for item in value.values))
    if isinstance(value, TracedTree):
        return value
    if isinstance(value, Instance):
        return instance(value.node, value.fields, traced=True)
    if isinstance(value, LibraryObject):
        return LibraryObject(value.qualname, True, value.callbacks)
    if isinstance(value, VariableBox):
        return VariableBox(value.qualname, traced_box_content(value.inner, param))
    return TracedTree(param)


def traced_box_content(inner: Value, param: str) -> Value:
    """What an nnx Variable holds once traced: its array as a tracer (a Variable holds an array leaf)."""
    return traced_copy(inner, param) if inner is not UNKNOWN else Array(traced=True)


def instance(
    node: ast.ClassDef,
    fields: tuple[tuple[str, Value], ...] | None = None,
    traced: bool = False,
    arrays_only: bool = False,
    lifetime: str = "unknown",
) -> Instance:
    """An :class:`Instance` of class ``node`` (instances of one class compare equal by its identity)."""
    return Instance(node, fields, traced, arrays_only, id(node), lifetime)


def concrete_copy(value: Value) -> Value:
    """What a jitted call's result is outside any trace: the same arrays, no longer tracers."""
    if isinstance(value, Array):
        return Array(value.shape, value.dtype, value.weak_type, False, value.library)
    if isinstance(value, Seq):
        return Seq(tuple(concrete_copy(item) for item in value.items), value.is_list)
    if isinstance(value, Dict):
        return Dict(value.keys, tuple(concrete_copy(item) for item in value.values))
    if isinstance(value, TracedTree):
        return UNKNOWN
    if isinstance(value, Instance):
        # A pytree node's fields come out of the call as arrays too (a NamedTuple optimizer state).
        fields = tuple((name, concrete_copy(field)) for name, field in value.fields) if value.fields else value.fields
        return instance(value.node, fields)
    if isinstance(value, VariableBox):
        return VariableBox(value.qualname, concrete_copy(value.inner))
    return value


def join(a: Value, b: Value) -> Value:
    """The least value covering both ``a`` and ``b``.

    Examples:
        >>> join(Const(1), Const(1))
        Const(1)
        >>> join(Const(1), Const(2))
        Static(kind='int')
        >>> join(Array((3,), "float32", traced=True), Array((4,), "float32", traced=True)).shape
        (None,)
    """
    if a is b or a == b:
        return a
    if a is UNKNOWN or b is UNKNOWN:
        return UNKNOWN
    if isinstance(a, Const | Static) and isinstance(b, Const | Static):
        kind_a = a.kind if isinstance(a, Static) else type(a.value).__name__
        kind_b = b.kind if isinstance(b, Static) else type(b.value).__name__
        return Static(kind_a if kind_a == kind_b else None)
    if isinstance(a, Array) and isinstance(b, Array) and a.library == b.library:
        if a.shape is None or b.shape is None or len(a.shape) != len(b.shape):
            shape = None
        else:
            shape = tuple(x if x == y else None for x, y in zip(a.shape, b.shape, strict=True))
        return Array(
            shape,
            a.dtype if a.dtype == b.dtype else None,
            a.weak_type and b.weak_type,
            a.traced and b.traced,
            a.library,
        )
    if isinstance(a, Seq) and isinstance(b, Seq) and a.is_list == b.is_list and len(a.items) == len(b.items):
        return Seq(tuple(join(x, y) for x, y in zip(a.items, b.items, strict=True)), a.is_list)
    if isinstance(a, TracedTree) and isinstance(b, TracedTree):
        return a if a.arrays_only == b.arrays_only else TracedTree(a.param, True)
    if isinstance(a, VariableBox) and isinstance(b, VariableBox) and a.qualname == b.qualname:
        return VariableBox(a.qualname, join(a.inner, b.inner))
    if isinstance(a, Instance) and isinstance(b, Instance) and a.node is b.node:
        fields = None
        if a.fields is not None and b.fields is not None and [k for k, _ in a.fields] == [k for k, _ in b.fields]:
            fields = tuple((k, join(x, y)) for (k, x), (_, y) in zip(a.fields, b.fields, strict=True))
        lifetime = a.lifetime if a.lifetime == b.lifetime else "unknown"
        return instance(a.node, fields, a.traced and b.traced, a.arrays_only or b.arrays_only, lifetime)
    for tree, other in ((a, b), (b, a)):
        if isinstance(tree, TracedTree) and isinstance(other, Array) and other.traced:
            return tree
    return UNKNOWN


class CallArguments:
    """A call's argument values and expressions, looked up by position or keyword.

    A call with a ``*args`` argument has no positional arguments here: their positions are unknown.
    """

    def __init__(self, node: ast.Call, args: Sequence[Value], keywords: Mapping[str, Value]) -> None:
        starred = any(isinstance(arg, ast.Starred) for arg in node.args)
        self.args = [] if starred else list(args)
        self.exprs = [] if starred else list(node.args)
        self.keywords = keywords
        self.keyword_exprs = {k.arg: k.value for k in node.keywords if k.arg is not None}

    def get(self, position: int, name: str) -> Value | None:
        """The value of the argument at ``position`` or named ``name``, or ``None`` when not given."""
        if name in self.keywords:
            return self.keywords[name]
        return self.args[position] if position < len(self.args) else None

    def expr(self, position: int, name: str) -> ast.expr | None:
        """The expression of the argument at ``position`` or named ``name``, or ``None``."""
        if name in self.keyword_exprs:
            return self.keyword_exprs[name]
        return self.exprs[position] if position < len(self.exprs) else None
