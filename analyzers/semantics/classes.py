"""The module's own classes as the interpreter sees them: fields, attributes, methods and how JAX treats them.

Training code keeps its state in objects: a trainer stores its config and optimizer on ``self``, a
``NamedTuple`` carries a batch, a frozen dataclass a config, a flax ``nnx.Module`` or an equinox
module its weights. A :class:`ClassModel` answers what the interpreter needs to follow values
through them:

* the *fields* of a dataclass-like class (``@dataclass``, ``flax.struct.dataclass``,
  ``chex.dataclass``, ``NamedTuple``, ``equinox.Module``) in order, with their defaults, so that a
  construction ``Batch(x, y)`` knows each field's value;
* which fields stay static when the object crosses a ``jit`` boundary
  (``eqx.field(static=True)``, ``flax.struct.field(pytree_node=False)``);
* the methods, looked up through the bases defined in the module;
* the attributes other classes get from ``self.name = ...`` in their methods.

Examples:
    >>> code = '''
    ... import equinox as eqx
    ... from typing import NamedTuple
    ... class Batch(NamedTuple):
    ...     x: object
    ...     y: object = None
    ... class MLP(eqx.Module):
    ...     w: object
    ...     depth: int = eqx.field(static=True)
    ...     def __call__(self, x):
    ...         return x @ self.w
    ... '''
    >>> from xlalens.analyzers.semantics.names import ModuleIndex
    >>> index = ModuleIndex(ast.parse(code), [])
    >>> batch, mlp = (ClassModel(index, index.tree.body[i]) for i in (2, 3))
    >>> batch.kind, batch.field_names, mlp.kind, mlp.static_fields, mlp.method("__call__").name
    ('namedtuple', ('x', 'y'), 'equinox', frozenset({'depth'}), '__call__')
"""

from __future__ import annotations

import ast
import functools

from xlalens.analyzers.semantics.names import ModuleIndex, Scope

_DATACLASS_DECORATORS = frozenset(
    {"dataclasses.dataclass", "flax.struct.dataclass", "chex.dataclass", "chex.mappable_dataclass"}
)
_PYTREE_DECORATORS = frozenset(
    {
        "flax.struct.dataclass",
        "chex.dataclass",
        "chex.mappable_dataclass",
        "jax.tree_util.register_dataclass",
        "jax.tree_util.register_pytree_node_class",
        "jax.tree_util.register_pytree_with_keys_class",
    }
)
_KINDS_BY_BASE = {
    "typing.NamedTuple": "namedtuple",
    "equinox.Module": "equinox",
    "flax.nnx.Module": "nnx",
    "flax.linen.Module": "linen",
    "flax.struct.PyTreeNode": "flax_struct",
}
_STATIC_FIELD_CALLS = {"equinox.field": "static", "flax.struct.field": "pytree_node", "dataclasses.field": None}


class ClassModel:
    """What the interpreter knows of one class defined in the module.

    Args:
        index: The module.
        node: The ``class`` statement.
    """

    def __init__(self, index: ModuleIndex, node: ast.ClassDef) -> None:
        self.index = index
        self.node = node
        scope = index.scope_of(node)
        self.outer: Scope = scope.parent if scope is not None and scope.parent is not None else index.module_scope
        self._resolving = False
        self._methods: dict[str, ast.FunctionDef | None] = {}

    @property
    def bases(self) -> list[ClassModel | None]:
        """The models of the bases defined in the module (``None`` for the others); a cycle ends in ``[]``."""
        if self._resolving:
            return []
        self._resolving = True
        try:
            return [self._base(base) for base in self.node.bases]
        finally:
            self._resolving = False
        self._methods: dict[str, ast.FunctionDef | None] = {}

    @functools.cached_property
    def kind(self) -> str:
        """``plain``, ``dataclass``, ``namedtuple``, ``equinox``, ``nnx``, ``linen`` or ``flax_struct``."""
        for decorator in self.node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if self.index.qualname(target, self.outer) in _DATACLASS_DECORATORS:
                return "dataclass"
        for base in self.node.bases:
            kind = _KINDS_BY_BASE.get(self.index.qualname(base, self.outer) or "")
            if kind is not None:
                return kind
        for base in self.bases:
            if base is not None and base.kind != "plain":
                return base.kind
        return "plain"

    @functools.cached_property
    def pytree(self) -> bool:
        """Whether a transform traces its instances' fields (a registered pytree, a module under its own
        transforms); ``register_static`` classes and plain classes and dataclasses stay static."""
        decorators = {
            self.index.qualname(d.func if isinstance(d, ast.Call) else d, self.outer) for d in self.node.decorator_list
        }
        if "jax.tree_util.register_static" in decorators:
            return False
        if decorators & _PYTREE_DECORATORS:
            return True
        return self.kind in ("namedtuple", "equinox", "nnx", "flax_struct") or any(
            base is not None and base.pytree for base in self.bases
        )

    @property
    def dataclass_like(self) -> bool:
        """Whether constructing it binds its fields in order (no ``__init__`` of its own)."""
        return (
            self.kind in ("dataclass", "namedtuple", "equinox", "flax_struct", "linen")
            and self.method("__init__") is None
        )

    @functools.cached_property
    def fields(self) -> tuple[tuple[str, ast.expr | None], ...]:
        """The annotated fields in order (bases first), each with its default expression."""
        found: dict[str, ast.expr | None] = {}
        for base in self.bases:
            if base is not None:
                found.update(base.fields)
        for statement in self.node.body:
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                if _is_class_var(statement.annotation):
                    continue
                found[statement.target.id] = _default_of(statement.value, self.index, self.outer)
        return tuple(found.items())

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.fields)

    @functools.cached_property
    def static_fields(self) -> frozenset[str]:
        """Fields that stay static Python values when the object is passed to a transform."""
        found: set[str] = set()
        for base in self.bases:
            if base is not None:
                found |= base.static_fields
        for statement in self.node.body:
            if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
                continue
            value = statement.value
            if isinstance(value, ast.Call):
                keyword = _STATIC_FIELD_CALLS.get(self.index.qualname(value.func, self.outer) or "")
                flags = {k.arg: k.value for k in value.keywords}
                flag = flags.get(keyword) if keyword else None
                if isinstance(flag, ast.Constant) and flag.value is (keyword == "static"):
                    found.add(statement.target.id)
        return frozenset(found)

    @functools.cached_property
    def hashes_by_identity(self) -> bool:
        """Whether its objects hash by identity: a plain class of the module (bases of the module only)
        with no ``__eq__`` or ``__hash__``, so two objects built alike are still different keys."""
        plain = self.kind == "plain" and not self.node.decorator_list
        if self.node.keywords or not (plain or self._dataclass_without_eq):
            return False
        if any(base is None for base in self.bases) and any(
            not (isinstance(b, ast.Name) and b.id == "object") for b in self.node.bases
        ):
            return False  # a base from elsewhere may define equality
        return self.method("__eq__") is None and self.method("__hash__") is None

    @property
    def _dataclass_without_eq(self) -> bool:
        """``@dataclasses.dataclass(eq=False)`` as its only decorator: it keeps ``object``'s identity hash."""
        if len(self.node.decorator_list) != 1 or not isinstance(self.node.decorator_list[0], ast.Call):
            return False
        decorator = self.node.decorator_list[0]
        flags = {k.arg: k.value for k in decorator.keywords}
        eq = flags.get("eq")
        return (
            self.index.qualname(decorator.func, self.outer) == "dataclasses.dataclass"
            and isinstance(eq, ast.Constant)
            and eq.value is False
            and not ({"frozen", "unsafe_hash", None} & flags.keys())
        )

    @functools.cached_property
    def unhashable(self) -> str | None:
        """Why its objects cannot be hashed, when they certainly cannot: a ``@dataclass`` that compares by
        value but is neither frozen nor ``unsafe_hash`` (Python sets its ``__hash__`` to None), or a class
        defining ``__eq__`` without ``__hash__``; None otherwise.

        Examples:
            >>> code = "import dataclasses\\n@dataclasses.dataclass\\nclass A:\\n    n: int = 1\\n"
            >>> code += "@dataclasses.dataclass(frozen=True)\\nclass B:\\n    n: int = 1\\n"
            >>> index = ModuleIndex(ast.parse(code), [])
            >>> [class_model(index, index.tree.body[k]).unhashable for k in (1, 2)]
            ['a dataclass that is not frozen', None]
        """
        if self.method("__hash__") is not None:
            return None
        for decorator in self.node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if self.index.qualname(target, self.outer) != "dataclasses.dataclass":
                continue
            flags = {k.arg: k.value for k in decorator.keywords} if isinstance(decorator, ast.Call) else {}
            if any(k is None for k in flags):
                return None  # `**options` may set any of them
            given = {name: flag.value for name, flag in flags.items() if isinstance(flag, ast.Constant)}
            if len(given) != len(flags):
                return None
            if given.get("eq", True) and not given.get("frozen", False) and not given.get("unsafe_hash", False):
                return "a dataclass that is not frozen"
            return None
        own_eq = any(isinstance(s, ast.FunctionDef) and s.name == "__eq__" for s in self.node.body)
        plain_bases = all(isinstance(b, ast.Name) and b.id == "object" for b in self.node.bases)
        if own_eq and plain_bases and not self.node.decorator_list and not self.node.keywords:
            return "a class with `__eq__` but no `__hash__`"
        return None

    def method(self, name: str) -> ast.FunctionDef | None:
        """The ``def name`` of this class or of a base defined in the module (first found, depth first)."""
        if name not in self._methods:
            self._methods[name] = self._find_method(name)
        return self._methods[name]

    def _find_method(self, name: str) -> ast.FunctionDef | None:
        for statement in self.node.body:
            if isinstance(statement, ast.FunctionDef) and statement.name == name:
                return statement
        for base in self.bases:
            if base is not None:
                found = base.method(name)
                if found is not None:
                    return found
        return None

    @functools.cached_property
    def attribute_assignments(self) -> dict[str, list[tuple[ast.expr, ast.FunctionDef]]]:
        """``self.name = value`` in the methods (the value and the method), by attribute name."""
        found: dict[str, list[tuple[ast.expr, ast.FunctionDef]]] = {}
        for base in self.bases:
            if base is not None:
                for name, values in base.attribute_assignments.items():
                    found.setdefault(name, []).extend(values)
        for name, values in self.index.derived("self-assignments", self_assignments).get(id(self.node), {}).items():
            found.setdefault(name, []).extend(values)
        return found

    @functools.cached_property
    def class_values(self) -> dict[str, ast.expr]:
        """Plain class attributes: ``name = value`` in the class body."""
        found: dict[str, ast.expr] = {}
        for statement in self.node.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target = statement.targets[0]
                if isinstance(target, ast.Name):
                    found[target.id] = statement.value
        return found

    def _base(self, base: ast.expr) -> ClassModel | None:
        found = self.index.lookup(base.id, self.outer) if isinstance(base, ast.Name) else None
        if found is None or len(found[1]) != 1:
            return None
        node = found[1][0].node
        return class_model(self.index, node) if isinstance(node, ast.ClassDef) and node is not self.node else None


def _is_class_var(annotation: ast.expr) -> bool:
    head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    return (isinstance(head, ast.Name) and head.id == "ClassVar") or (
        isinstance(head, ast.Attribute) and head.attr == "ClassVar"
    )


def _default_of(value: ast.expr | None, index: ModuleIndex, scope: Scope) -> ast.expr | None:
    """A field's default: the value, or ``default=`` of ``field(...)``; ``None`` when it has none."""
    if isinstance(value, ast.Call) and (index.qualname(value.func, scope) or "") in _STATIC_FIELD_CALLS:
        return next((k.value for k in value.keywords if k.arg == "default"), None)
    return value


def self_assignments(index: ModuleIndex) -> dict[int, dict[str, list[tuple[ast.expr, ast.FunctionDef]]]]:
    """``self.name = value`` in every method of the module, by ``id`` of the class and attribute name.

    Read from the assignments the index collected (one pass for the whole module, not one walk per class).
    """
    found: dict[int, dict[str, list[tuple[ast.expr, ast.FunctionDef]]]] = {}
    for statement, scope in index.nodes.get(ast.Assign, ()):
        assert isinstance(statement, ast.Assign)
        pairs = _target_value_pairs(statement)
        if not pairs:
            continue
        method = scope.enclosing_function()
        owner = method.parent if method is not None else None
        if owner is None or not owner.is_class or not isinstance(method.node, ast.FunctionDef):  # type: ignore[union-attr]
            continue
        node = method.node  # type: ignore[union-attr]
        receiver = node.args.args[0].arg if node.args.args else None
        for target, value in pairs:
            if target.value.id == receiver:  # type: ignore[attr-defined]
                found.setdefault(id(owner.node), {}).setdefault(target.attr, []).append((value, node))
    return found


def _target_value_pairs(statement: ast.Assign) -> list[tuple[ast.Attribute, ast.expr]]:
    """The ``name.attr = value`` pairs of an assignment, also unpacked ``self.a, self.b = a, b``."""
    if len(statement.targets) != 1:
        return []
    target, value = statement.targets[0], statement.value
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        return [(target, value)]
    if (
        isinstance(target, ast.Tuple)
        and isinstance(value, ast.Tuple)
        and len(target.elts) == len(value.elts)
        and not any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts))
    ):
        return [
            (t, v)
            for t, v in zip(target.elts, value.elts, strict=True)
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
        ]
    return []


def class_model(index: ModuleIndex, node: ast.ClassDef) -> ClassModel:
    """The model of class ``node``, built once per check."""
    models: dict[int, ClassModel] = index.derived("class-models", lambda _: {})
    found = models.get(id(node))
    if found is None:
        found = models[id(node)] = ClassModel(index, node)
    return found
