"""Exact pytree types of loop carries and branch outputs, inferred from the source.

The general interpreter (:mod:`xlalens.analyzers.semantics.interpreter`) keeps values coarse; the carry and
branch rules need more: per leaf the exact shape, dtype and weak type, through JAX's promotion
rules. This module interprets one loop body or branch for given argument types. It follows
straight-line code only (assignments, returns, local helper calls); any statement or call it does
not model makes the result unknown (``None``), which silences the rules.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field

from xlalens.analyzers.semantics.array_ops import (
    ELEMENTWISE_FLOAT,
    ELEMENTWISE_SAME,
    FULL_SLICE,
    REDUCTIONS,
    ArrayType,
    IndexPart,
    broadcast,
    einsum_shape,
    function_result,
    index_shape,
    joined_shape,
    matmul_shape,
    swapped_shape,
)
from xlalens.analyzers.semantics.calls import call_graph
from xlalens.analyzers.semantics.classes import class_model
from xlalens.analyzers.semantics.names import BindingKind, FunctionNode, ModuleIndex, Scope
from xlalens.analyzers.semantics.scope_view import ScopeView
from xlalens.analyzers.semantics.values import (
    UNKNOWN,
    Array,
    Const,
    Dict,
    FunctionRef,
    Instance,
    ModuleRef,
    Seq,
    Value,
)
from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.dtypes import PROMOTABLE_DTYPES, is_inexact, result_type

_MAX_CALL_DEPTH = 4
_BINARY_FUNCTIONS = {
    "add": ast.Add(),
    "subtract": ast.Sub(),
    "multiply": ast.Mult(),
    "divide": ast.Div(),
    "true_divide": ast.Div(),
    "maximum": ast.Add(),
    "minimum": ast.Add(),
}
_FILLED = frozenset({"zeros", "ones", "empty"})


@dataclass(frozen=True, slots=True)
class Leaf:
    """An array leaf: its exact shape, dtype and weak type, and the expression that made it."""

    shape: tuple[int, ...]
    dtype: str
    weak: bool = False
    origin: ast.AST | None = field(default=None, compare=False)

    def describe(self) -> str:
        """JAX's notation, e.g. ``float32[3,4]``."""
        return dtypes.aval(self.dtype, self.shape, long=True)


@dataclass(frozen=True, slots=True)
class ContainerType:
    """A pytree container: ``tuple``, ``list``, ``dict``, ``None`` or a named tuple class."""

    kind: str
    keys: tuple[object, ...] = ()
    children: tuple[Tree, ...] = ()
    origin: ast.AST | None = field(default=None, compare=False)

    def describe(self) -> str:
        """How JAX names the container type."""
        if self.kind == "None":
            return "None"
        if self.kind == "dict":
            return "a dict with keys " + ", ".join(sorted(repr(k) for k in self.keys))
        if self.kind in ("tuple", "list"):
            return f"a {self.kind} of {len(self.children)}"
        return f"a {self.kind} named tuple"


@dataclass(frozen=True, slots=True)
class UntypedLeaf:
    """An array leaf whose shape and dtype are unknown: enough to tell a structure apart from a container."""

    origin: ast.AST | None = field(default=None, compare=False)

    def describe(self) -> str:
        """What is known of it."""
        return "an array"


Tree = Leaf | UntypedLeaf | ContainerType | None
"""A pytree type, or None when unknown."""


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One difference between an expected and an actual pytree type."""

    kind: str  # "structure", "shape" or "dtype"
    path: str
    expected: Leaf | UntypedLeaf | ContainerType
    actual: Leaf | UntypedLeaf | ContainerType


def with_origin(tree: Tree, origin: ast.AST) -> Tree:
    """``tree`` re-attributed to ``origin`` (where a body produces it)."""
    if isinstance(tree, Leaf):
        return Leaf(tree.shape, tree.dtype, tree.weak, origin)
    if isinstance(tree, ContainerType):
        return ContainerType(tree.kind, tree.keys, tree.children, origin)
    if isinstance(tree, UntypedLeaf):
        return UntypedLeaf(origin)
    return tree


def _scalar(value: object, origin: ast.AST | None) -> Tree:
    if isinstance(value, bool):
        return Leaf((), "bool", False, origin)
    if isinstance(value, int):
        return Leaf((), "int32", True, origin)
    if isinstance(value, float):
        return Leaf((), "float32", True, origin)
    if value is None:
        return ContainerType("None", origin=origin)
    return None


def from_value(value: Value, origin: ast.AST | None = None, index: ModuleIndex | None = None) -> Tree:
    """The pytree type of a value from the general interpreter, when it is exact.

    With the module's ``index``, objects of its ``NamedTuple`` classes built with known fields count too.
    """
    if isinstance(value, Const):
        return _scalar(value.value, origin)
    if isinstance(value, Array):
        if value.library != "jax":
            return None
        if value.shape is None or value.dtype not in PROMOTABLE_DTYPES or any(d is None for d in value.shape):
            return UntypedLeaf(origin)
        return Leaf(tuple(d for d in value.shape if d is not None), value.dtype, value.weak_type, origin)
    if isinstance(value, Seq):
        kids = tuple(from_value(v, None, index) for v in value.items)
        return ContainerType("list" if value.is_list else "tuple", tuple(range(len(kids))), kids, origin)
    if isinstance(value, Dict):
        return ContainerType("dict", value.keys, tuple(from_value(v, None, index) for v in value.values), origin)
    if isinstance(value, Instance) and index is not None and value.fields is not None:
        if class_model(index, value.node).kind != "namedtuple":
            return None
        keys = tuple(name for name, _ in value.fields)
        kids = tuple(from_value(v, None, index) for _, v in value.fields)
        return ContainerType(value.node.name, keys, kids, origin)
    return None


def to_value(tree: Tree) -> Value:
    """A pytree type as a value of the general interpreter: traced arrays of exactly that type."""
    if isinstance(tree, Leaf):
        return Array(tree.shape, tree.dtype, tree.weak, True, "jax")
    if isinstance(tree, UntypedLeaf):
        return Array(traced=True)
    if isinstance(tree, ContainerType) and tree.kind in ("tuple", "list"):
        return Seq(tuple(to_value(child) for child in tree.children), tree.kind == "list")
    if isinstance(tree, ContainerType) and tree.kind == "dict":
        return Dict(tree.keys, tuple(to_value(child) for child in tree.children))
    return UNKNOWN


def _key_text(kind: str, key: object) -> str:
    if kind == "dict":
        return f"[{key!r}]"
    if kind in ("tuple", "list"):
        return f"[{key}]"
    return f".{key}"


def _sorted_items(node: ContainerType) -> list[tuple[object, Tree]]:
    # JAX flattens dicts in sorted key order, so key order never matters.
    pairs = list(zip(node.keys, node.children, strict=True))
    if node.kind == "dict":
        return sorted(pairs, key=lambda pair: repr(pair[0]))
    return pairs


def compare(expected: Tree, actual: Tree, path: str, ignore_weak: bool) -> list[Mismatch]:
    """The differences JAX would reject between two pytree types (unknown parts never differ).

    Args:
        expected: The reference type (the initial carry, or the first branch's output).
        actual: The type to check (the body's carry output, or another branch's output).
        path: The text naming ``expected`` (``carry``), extended with keys for nested leaves.
        ignore_weak: Whether a weakly typed ``expected`` leaf may take another dtype (it is
            promoted, as JAX does for a weakly typed initial carry).
    """
    if expected is None or actual is None:
        return []
    if isinstance(expected, ContainerType) or isinstance(actual, ContainerType):
        if not (isinstance(expected, ContainerType) and isinstance(actual, ContainerType)):
            return [Mismatch("structure", path, expected, actual)]
        if expected.kind != actual.kind or sorted(map(repr, expected.keys)) != sorted(map(repr, actual.keys)):
            return [Mismatch("structure", path, expected, actual)]
        found: list[Mismatch] = []
        for (key, left), (_, right) in zip(_sorted_items(expected), _sorted_items(actual), strict=True):
            found += compare(left, right, path + _key_text(expected.kind, key), ignore_weak)
        return found
    if isinstance(expected, UntypedLeaf) or isinstance(actual, UntypedLeaf):
        return []
    if expected.shape != actual.shape:
        return [Mismatch("shape", path, expected, actual)]
    if expected.dtype != actual.dtype and not (ignore_weak and expected.weak):
        return [Mismatch("dtype", path, expected, actual)]
    return []


def promote_weak(init: Tree, out: Tree) -> Tree:
    """The initial carry after JAX promotes its weakly typed leaves to the body's output dtypes."""
    if isinstance(init, Leaf) and isinstance(out, Leaf):
        if init.weak and init.dtype != out.dtype and init.shape == out.shape:
            dtype, _ = result_type((init.dtype, True), (out.dtype, out.weak))
            return Leaf(init.shape, dtype, False, init.origin)
        return init
    if (
        isinstance(init, ContainerType)
        and isinstance(out, ContainerType)
        and init.kind == out.kind
        and init.keys == out.keys
    ):
        kids = tuple(promote_weak(a, b) for a, b in zip(init.children, out.children, strict=True))
        return ContainerType(init.kind, init.keys, kids, init.origin)
    return init


class BodyTypes:
    """Interprets functions of one module for given argument types.

    Args:
        ctx: The check context of the file.
    """

    def __init__(self, ctx: ScopeView) -> None:
        self.ctx = ctx
        self.index = ctx.index

    def function_at(self, expr: ast.expr, scope: Scope) -> FunctionNode | None:
        """The lambda, local ``def`` or method an expression denotes."""
        found = self.body_at(expr, scope)
        return found[0] if found is not None else None

    def body_at(self, expr: ast.expr, scope: Scope) -> tuple[FunctionNode, int] | None:
        """The function an expression denotes, with how many leading parameters are bound (``self.step``: 1)."""
        if isinstance(expr, ast.Lambda):
            return expr, 0
        if isinstance(expr, ast.Name):
            found = self.index.local_function(expr.id, scope)
            if found is not None:
                return found, 0
        value = self.ctx.interpreter.value_of(expr, scope)
        return (value.node, value.bound) if isinstance(value, FunctionRef) else None

    def call(
        self,
        function: FunctionNode,
        args: list[Tree],
        depth: int = 0,
        keywords: dict[str, Tree] | None = None,
        bound: int = 0,
    ) -> Tree:
        """The output type of ``function(*args, **keywords)``, or None when it cannot be followed.

        Parameters neither passed take their default's type (a literal, or a value the general
        interpreter knows exactly); the ``bound`` leading ones (a method's ``self``) are left to it.
        """
        args = [None] * bound + args
        scope = self.index.scope_of(function)
        params = function.args
        if scope is None or params.vararg or params.kwarg or params.kwonlyargs or params.posonlyargs:
            return None
        names = [param.arg for param in params.args]
        keywords = keywords or {}
        if len(args) > len(names) or depth > _MAX_CALL_DEPTH or set(keywords) - set(names[len(args) :]):
            return None
        defaults = dict(zip(names[len(names) - len(params.defaults) :], params.defaults, strict=True))
        run = _Run(self, scope, depth)
        owner = scope.parent or self.index.module_scope
        for position, name in enumerate(names):
            if position < len(args):
                run.env[name] = args[position]
            elif name in keywords:
                run.env[name] = keywords[name]
            elif name in defaults:
                run.env[name] = self.value_at(defaults[name], owner)
            else:
                return None
        if isinstance(function, ast.Lambda):
            return run.expr(function.body)
        return run.block(function.body)

    def value_at(self, expr: ast.expr, scope: Scope) -> Tree:
        """The type of an expression at a call site, e.g. a loop's initial carry."""
        return _Run(self, scope, 0, outer=True).expr(expr)


class _Run:
    """One interpretation of a function body (or of one expression at a call site)."""

    def __init__(self, types: BodyTypes, scope: Scope, depth: int, outer: bool = False) -> None:
        self.types = types
        self.index = types.index
        self.scope = scope
        self.depth = depth
        self.outer = outer
        self.env: dict[str, Tree] = {}
        self.functions: dict[str, FunctionNode] = {}

    # -- statements ---------------------------------------------------------------------------

    def block(self, statements: list[ast.stmt]) -> Tree:
        """Run a straight-line body; its return type, or None for anything else."""
        for position, statement in enumerate(statements):
            if isinstance(statement, ast.Return):
                if position != len(statements) - 1 or statement.value is None:
                    return None
                return self.expr(statement.value)
            if not self.statement(statement):
                return None
        return None

    def statement(self, node: ast.stmt) -> bool:
        if isinstance(node, ast.Assign):
            value = self.expr(node.value)
            return all(self.bind(target, value) for target in node.targets)
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            return self.bind(node.target, self.expr(node.value))
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            current = self.env.get(node.target.id)
            self.env[node.target.id] = with_origin(self.binop(node.op, current, self.expr(node.value)), node)
            return True
        if isinstance(node, ast.FunctionDef) and not node.decorator_list:
            self.functions[node.name] = node
            return True
        if isinstance(node, ast.Pass):
            return True
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            # A function such as `jax.debug.print` changes no binding; a method call may mutate
            # its receiver (`out.append(c)`), which would leave the recorded types stale.
            return self.index.qualname(node.value.func, self.scope) is not None
        return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)

    def bind(self, target: ast.expr, value: Tree) -> bool:
        if isinstance(target, ast.Name):
            self.env[target.id] = value
            self.functions.pop(target.id, None)
            return True
        if isinstance(target, ast.Tuple | ast.List):
            if any(isinstance(t, ast.Starred) for t in target.elts):
                return False
            if isinstance(value, ContainerType) and value.kind != "dict" and len(value.children) == len(target.elts):
                return all(self.bind(t, v) for t, v in zip(target.elts, value.children, strict=True))
            return all(self.bind(t, None) for t in target.elts)
        return False

    # -- expressions --------------------------------------------------------------------------

    def expr(self, node: ast.expr) -> Tree:
        tree = self.evaluate(node)
        if tree is None and isinstance(node, ast.Call | ast.Attribute | ast.Subscript) and not self.outer:
            tree = self.interpreted(node)
        if isinstance(tree, Leaf | UntypedLeaf | ContainerType) and not isinstance(node, ast.Name):
            return with_origin(tree, node)
        return tree

    def interpreted(self, node: ast.expr) -> Tree:
        """The type the general interpreter finds for ``node`` with this run's names bound to their types.

        It follows what this module does not (methods, ``jax.grad``, ``jax.tree.map``, attributes of
        objects); its answer counts only when it is exact.
        """
        return from_value(self.interpreted_value(node), None, self.index)

    def interpreted_value(self, node: ast.expr) -> Value:
        """The general interpreter's value of ``node`` with this run's names bound to their types."""
        # A name this run could not type keeps the interpreter's own value (joined over the calls it sees).
        names = {name: to_value(tree) for name, tree in self.env.items() if tree is not None}
        return self.types.ctx.interpreter.value_with(node, self.scope, names)

    def evaluate(self, node: ast.expr) -> Tree:
        if isinstance(node, ast.Constant):
            return _scalar(node.value, node)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Tuple | ast.List):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                return None
            kids = tuple(self.expr(e) for e in node.elts)
            return ContainerType("list" if isinstance(node, ast.List) else "tuple", tuple(range(len(kids))), kids)
        if isinstance(node, ast.Dict):
            if any(k is None or not isinstance(k, ast.Constant) for k in node.keys):
                return None
            keys = tuple(k.value for k in node.keys if isinstance(k, ast.Constant))
            return ContainerType("dict", keys, tuple(self.expr(v) for v in node.values))
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand)
            if isinstance(node.op, ast.USub | ast.UAdd) and isinstance(operand, Leaf) and operand.dtype != "bool":
                return operand
            if isinstance(node.op, ast.USub | ast.UAdd | ast.Invert) and isinstance(operand, UntypedLeaf):
                return operand
            return None
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.IfExp):
            body, orelse = self.expr(node.body), self.expr(node.orelse)
            return body if body is not None and body == orelse and not compare(body, orelse, "", False) else None
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        return None

    def name(self, node: ast.Name) -> Tree:
        if node.id in self.env:
            return self.env[node.id]
        if self.outer:
            return from_value(self.types.ctx.interpreter.value_of(node, self.scope), None, self.index)
        found = self.index.lookup(node.id, self.scope)
        if found is None or found[0] is self.scope:
            return None
        owner, bindings = found
        if owner.is_class or len(bindings) != 1 or bindings[0].kind not in (BindingKind.ASSIGN, BindingKind.PARAM):
            return None
        return from_value(
            self.types.ctx.interpreter.free_variable(node.id, self.scope.parent or owner), None, self.index
        )

    def binop(self, op: ast.operator, left: Tree, right: Tree) -> Tree:
        leaves = isinstance(left, UntypedLeaf | Leaf) and isinstance(right, UntypedLeaf | Leaf)
        if leaves and (isinstance(left, UntypedLeaf) or isinstance(right, UntypedLeaf)):
            return UntypedLeaf()  # an arithmetic operator on an array gives an array
        if not (isinstance(left, Leaf) and isinstance(right, Leaf)):
            return None
        if isinstance(op, ast.MatMult):
            shape = matmul_shape(left.shape, right.shape)
            if shape is None or left.weak or right.weak:
                return None
            return Leaf(shape, result_type((left.dtype, False), (right.dtype, False))[0])
        if not isinstance(op, ast.Add | ast.Sub | ast.Mult | ast.Div | ast.FloorDiv | ast.Mod | ast.Pow):
            return None
        shape = broadcast([left.shape, right.shape])
        if shape is None:
            return None
        dtype, weak = result_type((left.dtype, left.weak), (right.dtype, right.weak))
        if isinstance(op, ast.Div) and not is_inexact(dtype):
            dtype = "float32"
        if dtype == "bool" and not isinstance(op, ast.Add | ast.Mult):
            return None
        return Leaf(shape, dtype, weak)

    def compare(self, node: ast.Compare) -> Tree:
        if len(node.ops) != 1 or not isinstance(node.ops[0], ast.Lt | ast.LtE | ast.Gt | ast.GtE | ast.Eq | ast.NotEq):
            return None
        left, right = self.expr(node.left), self.expr(node.comparators[0])
        if not (isinstance(left, Leaf) and isinstance(right, Leaf)):
            return None
        if left.shape == () and right.shape == () and left.weak and right.weak:
            return None  # two Python numbers compare to a Python bool, not an array
        shape = broadcast([left.shape, right.shape])
        return None if shape is None else Leaf(shape, "bool")

    def subscript(self, node: ast.Subscript) -> Tree:
        base = self.expr(node.value)
        if isinstance(base, ContainerType) and isinstance(node.slice, ast.Constant) and base.kind != "None":
            key = node.slice.value
            if base.kind != "dict" and type(key) is int and -len(base.children) <= key < len(base.children):
                return base.children[key]
            if base.kind == "dict" and key in base.keys:
                return base.children[base.keys.index(key)]
            return None
        if isinstance(base, Leaf):
            entries = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            parts = [self.index_part(entry) for entry in entries]
            if any(part is None for part in parts):
                return None
            shape = index_shape(base.shape, parts)  # type: ignore[arg-type]
            return None if shape is None else Leaf(shape, base.dtype, base.weak)
        return None

    def index_part(self, entry: ast.expr) -> IndexPart | None:
        """One entry of an array index, when its kind and sizes are known."""
        if isinstance(entry, ast.Slice):
            bounds = [None if b is None else _int_literal(b) for b in (entry.lower, entry.upper, entry.step)]
            given = [b for b in (entry.lower, entry.upper, entry.step) if b is not None]
            if len([b for b in bounds if b is not None]) != len(given):
                return None
            return IndexPart("slice", tuple(bounds)) if given else FULL_SLICE  # type: ignore[arg-type]
        if isinstance(entry, ast.Constant) and entry.value is None:
            return IndexPart("none")
        if isinstance(entry, ast.Constant) and entry.value is Ellipsis:
            return IndexPart("ellipsis")
        if _int_literal(entry) is not None:
            return IndexPart("int")
        index = self.expr(entry)
        if isinstance(index, Leaf) and index.dtype.startswith(("int", "uint")):
            return IndexPart("array", shape=index.shape) if index.shape else IndexPart("int")
        return None

    def attribute(self, node: ast.Attribute) -> Tree:
        base = self.expr(node.value)
        if isinstance(base, Leaf) and node.attr == "T":
            return Leaf(tuple(reversed(base.shape)), base.dtype, base.weak)
        if (
            isinstance(base, ContainerType)
            and base.kind not in ("tuple", "list", "dict", "None")
            and node.attr in base.keys
        ):
            return base.children[base.keys.index(node.attr)]
        return None

    # -- calls ----------------------------------------------------------------------------------

    def dtype_of(self, expr: ast.expr | None) -> str | None:
        if expr is None:
            return None
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            name = expr.value
        else:
            qualname = self.index.qualname(expr, self.scope)
            if qualname is None and not self.outer:
                # A dtype kept in a config (`policy.compute_dtype`): what the interpreter knows it holds.
                value = self.interpreted_value(expr)
                qualname = value.qualname if isinstance(value, ModuleRef) else None
            if qualname is None or not qualname.startswith(("jax.numpy.", "numpy.")):
                return None
            name = qualname.rsplit(".", 1)[-1]
        return name if name in PROMOTABLE_DTYPES else None

    def call(self, node: ast.Call) -> Tree:
        keywords = {k.arg: k.value for k in node.keywords}
        if None in keywords:
            return None
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            method = call_graph(self.index).method_of_self(func.value.id, func.attr, self.scope)
            if method is not None:
                if any(isinstance(a, ast.Starred) for a in node.args):
                    return None
                given = {k: self.expr(v) for k, v in keywords.items() if k is not None}
                return self.types.call(method, [None, *(self.expr(a) for a in node.args)], self.depth + 1, given)
        if isinstance(func, ast.Attribute) and self.index.qualname(func, self.scope) is None:
            return self.method(func, node, keywords)
        qualname = self.index.qualname(func, self.scope)
        if qualname is not None:
            return self.api(qualname, node, keywords)
        if isinstance(func, ast.Name):
            return self.local_call(func, node)
        return None

    def local_call(self, func: ast.Name, node: ast.Call) -> Tree:
        function = self.functions.get(func.id)
        if function is None and func.id not in self.env:
            function = self.index.local_function(func.id, self.scope)
            if function is None:
                return self.namedtuple(func, node)
        if function is None or any(k.arg is None for k in node.keywords):
            return None
        if any(isinstance(a, ast.Starred) for a in node.args):
            return None
        args = [self.expr(a) for a in node.args]
        given = {k.arg: self.expr(k.value) for k in node.keywords if k.arg is not None}
        return self.types.call(function, args, self.depth + 1, given)

    def namedtuple(self, func: ast.Name, node: ast.Call) -> Tree:
        """A ``typing.NamedTuple`` subclass defined in the module, built with all its fields."""
        found = self.index.lookup(func.id, self.scope)
        if found is None or len(found[1]) != 1 or found[1][0].kind is not BindingKind.CLASS:
            return None
        klass = found[1][0].node
        if not isinstance(klass, ast.ClassDef) or len(klass.bases) != 1:
            return None
        if self.index.qualname(klass.bases[0], self.index.module_scope) != "typing.NamedTuple":
            return None
        fields = [s.target.id for s in klass.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
        if len(node.args) > len(fields):
            return None
        given = dict(zip(fields, node.args, strict=False)) | {k.arg: k.value for k in node.keywords if k.arg}
        if set(given) != set(fields):
            return None
        return ContainerType(klass.name, tuple(fields), tuple(self.expr(given[f]) for f in fields))

    def method(self, func: ast.Attribute, node: ast.Call, keywords: dict[str | None, ast.expr]) -> Tree:
        receiver = func.value
        if (
            isinstance(receiver, ast.Subscript)
            and isinstance(receiver.value, ast.Attribute)
            and receiver.value.attr == "at"
            and func.attr in ("set", "add", "multiply", "mul", "min", "max")
        ):
            # An indexed update keeps the array's type: the update is cast to it.
            base = self.expr(receiver.value.value)
            return base if isinstance(base, Leaf) else None
        base = self.expr(receiver)
        if isinstance(base, ContainerType) and func.attr == "_replace" and not node.args:
            if base.kind in ("tuple", "list", "dict", "None") or not set(keywords) <= set(base.keys):
                return None
            kids = tuple(
                self.expr(keywords[k]) if k in keywords else child
                for k, child in zip(base.keys, base.children, strict=True)
            )
            return ContainerType(base.kind, base.keys, kids)
        if not isinstance(base, Leaf):
            return None
        if func.attr == "astype" and len(node.args) == 1 and not keywords:
            dtype = self.dtype_of(node.args[0])
            return None if dtype is None else Leaf(base.shape, dtype)
        if func.attr == "reshape":
            return self.reshape(base, node.args[0] if len(node.args) == 1 else ast.Tuple(node.args))
        if func.attr in REDUCTIONS and not node.args:
            return self.reduce(func.attr, base, keywords)
        axes = [_int_literal(a) for a in node.args]
        if func.attr == "swapaxes" and len(axes) == 2 and None not in axes and not keywords:
            shape = swapped_shape(base.shape, axes[0], axes[1])  # type: ignore[arg-type]
            return Leaf(shape, base.dtype, base.weak) if shape is not None else None  # type: ignore[arg-type]
        return None

    def api(self, qualname: str, node: ast.Call, keywords: dict[str | None, ast.expr]) -> Tree:
        if not qualname.startswith(("jax.numpy.", "jax.nn.")) or qualname.count(".") != 2:
            return None
        name = qualname.rsplit(".", 1)[-1]
        args = node.args
        if any(isinstance(a, ast.Starred) for a in args):
            return None
        if name in PROMOTABLE_DTYPES and len(args) == 1 and not keywords and qualname.startswith("jax.numpy."):
            value = self.expr(args[0])
            return Leaf(value.shape, name) if isinstance(value, Leaf) else None
        dtype = self.dtype_of(keywords.get("dtype"))
        if "dtype" in keywords and dtype is None:
            return None
        if name in _FILLED or name == "full":
            position = 1 if name in _FILLED else 2
            if len(args) > position:
                dtype = self.dtype_of(args[position])
                if dtype is None:
                    return None
            shape = self.shape_of(args[0] if args else keywords.get("shape"))
            if shape is None or len(args) > position + 1:
                return None
            if name == "full":
                fill = self.expr(args[1]) if len(args) > 1 else None
                if not isinstance(fill, Leaf) or fill.shape != ():
                    return None
                return Leaf(shape, dtype or fill.dtype, False if dtype else fill.weak)
            return Leaf(shape, dtype or "float32")
        if name == "broadcast_to" and len(args) == 2 and not keywords:
            value, shape = self.expr(args[0]), self.shape_of(args[1])
            if not isinstance(value, Leaf) or shape is None or broadcast([value.shape, shape]) != shape:
                return None
            return Leaf(shape, value.dtype, value.weak)
        if qualname == "jax.nn.one_hot" and len(args) == 2 and set(keywords) <= {"dtype"}:
            indices, classes = self.expr(args[0]), self.int_of(args[1])
            if not isinstance(indices, Leaf) or classes is None or not indices.dtype.startswith(("int", "uint")):
                return None
            return Leaf((*indices.shape, classes), dtype or "float32")
        if name == "einsum" and args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
            operands = [self.expr(a) for a in args[1:]]
            leaves = [o for o in operands if isinstance(o, Leaf)]
            if len(leaves) != len(operands) or not leaves or keywords:
                return None
            shape = einsum_shape(args[0].value, [leaf.shape for leaf in leaves])
            dtype, weak = result_type(*((leaf.dtype, leaf.weak) for leaf in leaves))
            return Leaf(shape, dtype, weak) if shape is not None else None
        if name in ("concatenate", "stack") and len(args) == 1 and set(keywords) <= {"axis"}:
            return self.join_arrays(name, args[0], keywords.get("axis"))
        if name == "arange" and len(args) == 1 and not keywords:
            stop = args[0]
            if isinstance(stop, ast.Constant) and type(stop.value) is int and stop.value >= 0:
                return Leaf((stop.value,), "int32")
            return None
        if name in ("zeros_like", "ones_like", "asarray", "array") and len(args) == 1:
            value = self.expr(args[0])
            if not isinstance(value, Leaf) or set(keywords) - {"dtype"}:
                return None
            if dtype is not None:
                return Leaf(value.shape, dtype)
            return value if not value.weak else None
        if set(keywords) - {"axis", "keepdims"}:
            return None
        operands = [self.expr(a) for a in args]
        if not all(isinstance(o, Leaf) for o in operands):
            return None
        leaves = [o for o in operands if isinstance(o, Leaf)]
        if (name in ELEMENTWISE_SAME or name in ELEMENTWISE_FLOAT) and len(leaves) == 1 and not keywords:
            return _leaf(function_result(name, [ArrayType(leaves[0].shape, leaves[0].dtype, leaves[0].weak)]))
        if name in _BINARY_FUNCTIONS and len(leaves) == 2 and not keywords:
            return self.binop(_BINARY_FUNCTIONS[name], leaves[0], leaves[1])
        if name == "where" and len(leaves) == 3 and not keywords and leaves[0].dtype == "bool":
            shape = broadcast([leaf.shape for leaf in leaves])
            dtype_, weak = result_type(*((leaf.dtype, leaf.weak) for leaf in leaves[1:]))
            return None if shape is None else Leaf(shape, dtype_, weak)
        if name in REDUCTIONS and len(leaves) == 1:
            return self.reduce(name, leaves[0], keywords)
        return None

    def join_arrays(self, name: str, sequence: ast.expr, axis_expr: ast.expr | None) -> Tree:
        """``concatenate``/``stack`` of a literal list of arrays along a constant axis."""
        if not isinstance(sequence, ast.Tuple | ast.List) or not sequence.elts:
            return None
        axis = 0 if axis_expr is None else _int_literal(axis_expr)
        if axis is None:
            return None
        parts = [self.expr(e) for e in sequence.elts]
        leaves = [p for p in parts if isinstance(p, Leaf)]
        if len(leaves) != len(parts):
            return None
        dtype, weak = result_type(*((leaf.dtype, leaf.weak) for leaf in leaves))
        shape = joined_shape(name, [leaf.shape for leaf in leaves], axis)
        return None if shape is None else Leaf(shape, dtype, weak)

    def reduce(self, name: str, base: Leaf, keywords: dict[str | None, ast.expr]) -> Tree:
        """A reduction (``sum``, ``mean``, ``argmax``...) of a strongly typed array over all or one axis."""
        if set(keywords) - {"axis", "keepdims"}:
            return None
        keepdims = keywords.get("keepdims")
        if keepdims is not None and not (isinstance(keepdims, ast.Constant) and type(keepdims.value) is bool):
            return None
        axis = keywords.get("axis")
        position = None if axis is None else _int_literal(axis)
        if axis is not None and position is None:
            return None
        kept = bool(keepdims and keepdims.value)  # type: ignore[union-attr]
        return _leaf(function_result(name, [ArrayType(base.shape, base.dtype, base.weak)], position, kept))

    def int_of(self, expr: ast.expr) -> int | None:
        """A Python int: written literally, or one the interpreter computes (``x.shape[0]``)."""
        literal = _int_literal(expr)
        if literal is not None or self.outer:
            return literal
        value = self.interpreted_value(expr)
        return value.value if isinstance(value, Const) and type(value.value) is int else None

    def shape_of(self, expr: ast.expr | None) -> tuple[int, ...] | None:
        if isinstance(expr, ast.Constant) and type(expr.value) is int:
            return (expr.value,)
        if isinstance(expr, ast.Attribute) and expr.attr == "shape":
            array = self.expr(expr.value)
            return array.shape if isinstance(array, Leaf) else None
        if isinstance(expr, ast.Tuple | ast.List):
            dims = [e.value for e in expr.elts if isinstance(e, ast.Constant) and type(e.value) is int]
            return tuple(dims) if len(dims) == len(expr.elts) else None
        return None

    def reshape(self, base: Leaf, expr: ast.expr) -> Tree:
        """A reshape to constant dimensions, with at most one ``-1``."""
        dims: list[int] = []
        for part in expr.elts if isinstance(expr, ast.Tuple | ast.List) else [expr]:
            if (
                isinstance(part, ast.UnaryOp)
                and isinstance(part.op, ast.USub)
                and isinstance(part.operand, ast.Constant)
            ):
                if part.operand.value != 1:
                    return None
                dims.append(-1)
            elif isinstance(part, ast.Constant) and type(part.value) is int:
                dims.append(part.value)
            else:
                return None
        size = math.prod(base.shape)
        if dims.count(-1) > 1:
            return None
        if -1 in dims:
            known = math.prod(d for d in dims if d != -1)
            if known == 0 or size % known:
                return None
            dims[dims.index(-1)] = size // known
        return Leaf(tuple(dims), base.dtype, base.weak) if math.prod(dims) == size else None


def _int_literal(expr: ast.expr) -> int | None:
    """An integer written literally, possibly negative (``-1``)."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub) and isinstance(expr.operand, ast.Constant):
        return -expr.operand.value if type(expr.operand.value) is int else None
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return expr.value
    return None


def _leaf(found: ArrayType | None) -> Tree:
    """A table's answer as a leaf type, when both its shape and dtype are known."""
    if found is None or found.shape is None or found.dtype is None:
        return None
    return Leaf(found.shape, found.dtype, found.weak)
