"""Scopes, bindings and qualified names.

One walk over the module records every scope (module, class, function, lambda), what each
scope binds (imports, parameters, assignments, definitions) and, for the node types rules
ask for, which scope each node sits in. Names then resolve through import aliases to fully
qualified names (``jnp.where`` -> ``jax.numpy.where``), and a local binding that shadows an
import (a parameter called ``np``) resolves to nothing: the analyzer never guesses.
"""

from __future__ import annotations

import ast
import builtins
import enum
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

_T = TypeVar("_T")

_BUILTIN_NAMES = frozenset(dir(builtins))

_CANONICAL_PREFIXES: dict[str, str] = {
    "flax.experimental.nnx": "flax.nnx",
    "jax.experimental.jax2tf": "jax.experimental.jax2tf",
    "torch_xla.experimental.xla_sharding": "torch_xla.distributed.spmd",
}

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda

LOOP_TYPES: tuple[type[ast.AST], ...] = (
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.ListComp,
    ast.SetComp,
    ast.GeneratorExp,
    ast.DictComp,
)
"""Statements and comprehensions that repeat code; :class:`ModuleIndex` always collects them."""

_BINDING_TYPES = frozenset(
    {
        ast.FunctionDef,
        ast.AsyncFunctionDef,
        ast.Lambda,
        ast.ClassDef,
        ast.Import,
        ast.ImportFrom,
        ast.Global,
        ast.Nonlocal,
        ast.ExceptHandler,
    }
)
"""Node types that open a scope or bind a name, which the walk handles by hand."""

_SCALAR_FIELDS = frozenset(
    {
        "arg",
        "asname",
        "attr",
        "conversion",
        "id",
        "is_async",
        "kind",
        "kwd_attrs",
        "level",
        "module",
        "name",
        "rest",
        "simple",
        "tag",
        "type_comment",
    }
)
"""Fields that hold names, numbers or flags, never nodes (a constant's ``value`` is one too)."""

_OPERATORS = (ast.operator, ast.unaryop, ast.boolop, ast.cmpop)


def _skipped_fields(wanted: Iterable[type[ast.AST]]) -> frozenset[str]:
    """Fields the walk need not look into: scalars, and contexts and operators when none is wanted.

    Examples:
        >>> sorted({"ctx", "op", "value"} & _skipped_fields([ast.Call]))
        ['ctx', 'op']
        >>> "op" in _skipped_fields([ast.Call, ast.Add])
        False
    """
    skipped = set(_SCALAR_FIELDS)
    if not any(issubclass(t, ast.expr_context) for t in wanted):
        skipped.add("ctx")
    if not any(issubclass(t, _OPERATORS) for t in wanted):
        skipped.update(("op", "ops"))
    return frozenset(skipped)


class BindingKind(enum.Enum):
    """What kind of statement bound a name."""

    IMPORT = "import"
    PARAM = "param"
    ASSIGN = "assign"
    DEF = "def"
    CLASS = "class"
    OTHER = "other"


@dataclass(slots=True)
class Binding:
    """One binding of a name in a scope."""

    kind: BindingKind
    qualname: str | None = None
    node: ast.AST | None = None


@dataclass(eq=False, slots=True)
class Scope:
    """A module, class, function or lambda scope."""

    node: ast.AST
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    global_names: set[str] = field(default_factory=set)

    @property
    def is_function(self) -> bool:
        return isinstance(self.node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)

    @property
    def is_class(self) -> bool:
        return isinstance(self.node, ast.ClassDef)

    def bind(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)

    def enclosing_function(self) -> Scope | None:
        """This scope if it is a function, else the nearest function around it."""
        scope: Scope | None = self
        while scope is not None and not scope.is_function:
            scope = scope.parent
        return scope


def canonical(qualname: str) -> str:
    """Map re-exporting module paths to the name users know.

    Examples:
        >>> canonical("flax.experimental.nnx.jit")
        'flax.nnx.jit'
        >>> canonical("jax.numpy.where")
        'jax.numpy.where'
    """
    for prefix, target in _CANONICAL_PREFIXES.items():
        if qualname == prefix or qualname.startswith(prefix + "."):
            return target + qualname[len(prefix) :]
    return qualname


class ModuleIndex:
    """Scopes and node locations for one parsed module.

    Args:
        tree: The parsed module.
        wanted: Node types whose occurrences (with their scope) are collected in ``nodes``.
    """

    def __init__(self, tree: ast.Module, wanted: Iterable[type[ast.AST]]) -> None:
        self.tree = tree
        self.module_scope = Scope(tree, None)
        self.scopes: dict[int, Scope] = {id(tree): self.module_scope}
        # Assignments are always collected: module aliases and lambdas resolve through them. So
        # are loops: most functions have none, and then nothing in them repeats; and `with`
        # statements: most modules have none, and then no call runs under a context manager.
        collected = {*wanted, ast.Assign, ast.With, ast.AsyncWith, *LOOP_TYPES}
        self.nodes: dict[type[ast.AST], list[tuple[ast.AST, Scope]]] = {t: [] for t in collected}
        self.functions: list[Scope] = []
        self._derived: dict[str, Any] = {}
        self._qualnames: dict[tuple[int, int], tuple[ast.AST, str | None]] = {}
        self._aliases_resolving: set[str] = set()
        self._walk()

    def derived(self, key: str, build: Callable[[ModuleIndex], _T]) -> _T:
        """A per-module analysis, built on first request and dropped together with the index.

        Analyses that several rules share (jit wrappers, loops, the torch_xla model) are kept
        here rather than in module-level caches: a cache keyed by the index whose value refers
        back to it keeps every checked file's tree alive in a long-running language server.
        """
        if key not in self._derived:
            self._derived[key] = build(self)
        return self._derived[key]  # type: ignore[no-any-return]

    def imports(self, *prefixes: str) -> bool:
        """Whether any scope of the module imports a name starting with one of ``prefixes``.

        Examples:
            >>> index = ModuleIndex(ast.parse("def f():\\n    from jax.experimental import pallas as pl\\n"), [])
            >>> index.imports("jax.experimental.pallas"), index.imports("torch")
            (True, False)
        """
        answers: dict[tuple[str, ...], bool] = self.derived("imports-answers", lambda _: {})
        found = answers.get(prefixes)
        if found is None:
            imported = self.derived("imported-names", _imported_names)
            found = answers[prefixes] = any(name.startswith(prefixes) for name in imported)
        return found

    def mentions(self, identifier: str) -> bool:
        """Whether ``identifier`` appears in the module as a name, an attribute or an imported name.

        A value no spelling of ``jax.vmap`` reaches cannot be a vmapped function: rules ask this
        before they evaluate callees in search of one.

        Examples:
            >>> index = ModuleIndex(ast.parse("from jax import vmap as v\\nimport jax\\njax.jit(f)"), [])
            >>> index.mentions("vmap"), index.mentions("jit"), index.mentions("grad")
            (True, True, False)
        """
        return identifier in self.derived("identifiers", _identifiers)

    def alias_for(self, module: str, scope: Scope, preferred: str | None = None) -> str | None:
        """A name that refers to ``module`` at ``scope``: ``preferred`` if it does, else any module-level name.

        Fixes use it to spell ``jax.debug.print`` or ``jnp.sin`` the way the file imports them.

        Examples:
            >>> index = ModuleIndex(ast.parse("import jax.numpy as np_\\nimport jax\\n"), [])
            >>> index.alias_for("jax.numpy", index.module_scope), index.alias_for("jax", index.module_scope, "jax")
            ('np_', 'jax')
            >>> index.alias_for("jax.random", index.module_scope) is None
            True
        """
        candidates = self.module_scope.bindings if preferred is None else (preferred, *self.module_scope.bindings)
        for name in candidates:
            if self.resolve_name(name, scope) == module:
                return name
        return None

    def is_free(self, name: str, scope: Scope) -> bool:
        """Whether ``name`` is bound nowhere ``scope`` can see (neither in it, its parents nor the builtins)."""
        return self.lookup(name, scope) is None and name not in _BUILTIN_NAMES

    def release(self) -> None:
        """Drop the per-module analyses, when the check that needed them is over.

        Each of them refers back to this index, a cycle that only the cycle collector can free:
        without it the index, its tree and every analysis stay in memory until a collection runs,
        and each collection of the older generations scans them again. ``derived`` rebuilds an
        analysis if one is asked for after this.
        """
        self._derived.clear()

    # -- the walk ---------------------------------------------------------------------------

    def _walk(self) -> None:
        nodes = self.nodes
        stack: list[tuple[ast.AST, Scope]] = [(child, self.module_scope) for child in reversed(self.tree.body)]
        push, pop = stack.append, stack.pop
        skipped = _skipped_fields(nodes)
        child_fields: dict[type[ast.AST], tuple[str, ...]] = {}
        while stack:
            node, scope = pop()
            node_type = type(node)
            bucket = nodes.get(node_type)
            if bucket is not None:
                bucket.append((node, scope))
            if node_type is ast.Name:
                if type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
                    self._bind_assigned(node.id, scope, node)  # type: ignore[attr-defined]
                continue
            if node_type in _BINDING_TYPES:
                if node_type is ast.FunctionDef or node_type is ast.AsyncFunctionDef:
                    self._enter_function(node, scope, stack)  # type: ignore[arg-type]
                    continue
                if node_type is ast.Lambda:
                    self._enter_lambda(node, scope, stack)  # type: ignore[arg-type]
                    continue
                if node_type is ast.ClassDef:
                    self._enter_class(node, scope, stack)  # type: ignore[arg-type]
                    continue
                if node_type is ast.Import or node_type is ast.ImportFrom:
                    self._bind_import(node, scope)  # type: ignore[arg-type]
                    continue
                if node_type is ast.Global or node_type is ast.Nonlocal:
                    scope.global_names.update(node.names)  # type: ignore[attr-defined]
                    continue
                if node.name:  # type: ignore[attr-defined]
                    scope.bind(node.name, Binding(BindingKind.OTHER, node=node))  # type: ignore[attr-defined]
            fields = child_fields.get(node_type)
            if fields is None:
                fields = child_fields[node_type] = tuple(f for f in node_type._fields if f not in skipped)
            for name in fields:
                value = getattr(node, name, None)
                if type(value) is list:
                    for item in reversed(value):
                        if isinstance(item, ast.AST):
                            push((item, scope))
                elif isinstance(value, ast.AST):
                    push((value, scope))

    def _bind_assigned(self, name: str, scope: Scope, node: ast.AST) -> None:
        target = self.module_scope if name in scope.global_names else scope
        target.bind(name, Binding(BindingKind.ASSIGN, node=node))

    def _push_arguments_defaults(self, args: ast.arguments, scope: Scope, stack: list) -> None:
        for default in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
            stack.append((default, scope))

    def _new_function_scope(self, node: FunctionNode, scope: Scope) -> Scope:
        inner = Scope(node, scope)
        self.scopes[id(node)] = inner
        self.functions.append(inner)
        args = node.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            inner.bind(arg.arg, Binding(BindingKind.PARAM, node=arg))
        for arg in (args.vararg, args.kwarg):
            if arg is not None:
                inner.bind(arg.arg, Binding(BindingKind.PARAM, node=arg))
        return inner

    def _enter_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, stack: list) -> None:
        scope.bind(node.name, Binding(BindingKind.DEF, node=node))
        for decorator in node.decorator_list:
            stack.append((decorator, scope))
        self._push_arguments_defaults(node.args, scope, stack)
        inner = self._new_function_scope(node, scope)
        for statement in reversed(node.body):
            stack.append((statement, inner))

    def _enter_lambda(self, node: ast.Lambda, scope: Scope, stack: list) -> None:
        self._push_arguments_defaults(node.args, scope, stack)
        inner = self._new_function_scope(node, scope)
        stack.append((node.body, inner))

    def _enter_class(self, node: ast.ClassDef, scope: Scope, stack: list) -> None:
        scope.bind(node.name, Binding(BindingKind.CLASS, node=node))
        inner = Scope(node, scope)
        self.scopes[id(node)] = inner
        for expr in [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]:
            stack.append((expr, scope))
        for statement in reversed(node.body):
            stack.append((statement, inner))

    def _bind_import(self, node: ast.Import | ast.ImportFrom, scope: Scope) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    scope.bind(alias.asname, Binding(BindingKind.IMPORT, canonical(alias.name), node))
                else:
                    top = alias.name.split(".", 1)[0]
                    scope.bind(top, Binding(BindingKind.IMPORT, top, node))
            return
        if node.level or not node.module:
            for alias in node.names:
                scope.bind(alias.asname or alias.name, Binding(BindingKind.OTHER, node=node))
            return
        for alias in node.names:
            if alias.name == "*":
                continue
            qualname = canonical(f"{node.module}.{alias.name}")
            scope.bind(alias.asname or alias.name, Binding(BindingKind.IMPORT, qualname, node))

    # -- queries ----------------------------------------------------------------------------

    def scope_of(self, node: ast.AST) -> Scope | None:
        """The scope a function, lambda or class node opens."""
        return self.scopes.get(id(node))

    def lookup(self, name: str, scope: Scope) -> tuple[Scope, list[Binding]] | None:
        """Find the bindings ``name`` refers to from ``scope``, following Python's rules."""
        current: Scope | None = scope
        first = True
        while current is not None:
            if name in current.global_names and current is not self.module_scope:
                current = self.module_scope
                continue
            if (first or not current.is_class) and name in current.bindings:
                return current, current.bindings[name]
            first = False
            current = current.parent
        return None

    def resolve_name(self, name: str, scope: Scope) -> str | None:
        """The qualified name ``name`` denotes in ``scope``, or None if it is a local value.

        Imports resolve to the imported name; a module-level ``jit = jax.jit`` resolves
        through the alias; an unbound name resolves to ``builtins.<name>``.
        """
        found = self.lookup(name, scope)
        if found is None:
            return f"builtins.{name}" if name in _BUILTIN_NAMES else None
        owner, bindings = found
        qualnames = {b.qualname for b in bindings}
        if len(qualnames) == 1 and all(b.kind is BindingKind.IMPORT for b in bindings):
            return bindings[0].qualname
        if owner is self.module_scope and len(bindings) == 1 and bindings[0].kind is BindingKind.ASSIGN:
            return self._module_alias(name, bindings[0])
        return None

    def _module_alias(self, name: str, binding: Binding) -> str | None:
        value = self._assigned_value(binding.node)
        if value is None or (isinstance(value, ast.Name) and value.id == name):
            return None
        if not isinstance(value, ast.Name | ast.Attribute) or name in self._aliases_resolving:
            return None  # a binding that refers back to itself (`x = x.shape`, `a = b.c; b = a.d`) names nothing
        self._aliases_resolving.add(name)
        try:
            return self.qualname(value, self.module_scope)
        finally:
            self._aliases_resolving.discard(name)

    def _assigned_value(self, target: ast.AST | None) -> ast.expr | None:
        """The value of a single-target ``=`` statement at the module's top level that binds ``target``."""
        statement = self._assignments.get(id(target))
        if statement is None or len(statement.targets) != 1 or id(statement) not in self._top_level_statements:
            return None
        return statement.value

    def qualname(self, expr: ast.AST, scope: Scope) -> str | None:
        """The fully qualified name of a ``Name`` or dotted ``Attribute`` expression.

        Examples:
            >>> tree = ast.parse("import jax.numpy as jnp\\njnp.where(c)")
            >>> index = ModuleIndex(tree, [])
            >>> index.qualname(tree.body[1].value.func, index.module_scope)
            'jax.numpy.where'
        """
        # Every rule that looks at a call asks for its callee's name: resolve each node once. The
        # entry keeps the node alive, so its id cannot be reused by a node built later.
        key = (id(expr), id(scope))
        cached = self._qualnames.get(key)
        if cached is not None:
            return cached[1]
        found = self._resolve_qualname(expr, scope)
        self._qualnames[key] = (expr, found)
        return found

    def _resolve_qualname(self, expr: ast.AST, scope: Scope) -> str | None:
        parts: list[str] = []
        while isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return None
        base = self.resolve_name(expr.id, scope)
        if base is None:
            return None
        if parts:
            return canonical(".".join([base, *reversed(parts)]))
        return base

    def local_function(self, name: str, scope: Scope) -> FunctionNode | None:
        """The function definition ``name`` refers to, when it is a single local ``def``."""
        found = self.lookup(name, scope)
        if found is None:
            return None
        _, bindings = found
        if len(bindings) == 1 and bindings[0].kind is BindingKind.DEF:
            node = bindings[0].node
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            return node
        if len(bindings) == 1 and bindings[0].kind is BindingKind.ASSIGN:
            statement = self._assignments.get(id(bindings[0].node))
            if statement is not None and isinstance(statement.value, ast.Lambda):
                return statement.value
        return None

    def assignment_of(self, target: ast.AST | None) -> ast.Assign | None:
        """The ``=`` statement with the single target ``target``, if that is how it is bound."""
        statement = self._assignments.get(id(target))
        return statement if statement is not None and len(statement.targets) == 1 else None

    def single_assignment(self, name: str, scope: Scope) -> tuple[ast.Assign, Scope] | None:
        """The one ``name = value`` statement that binds ``name`` as seen from ``scope``, and the scope it is
        in; None when the name is bound more than once or some other way.

        Examples:
            >>> index = ModuleIndex(ast.parse("w = make()\\nv = 1\\nv = 2\\n"), [ast.Assign])
            >>> statement, owner = index.single_assignment("w", index.module_scope)
            >>> ast.unparse(statement), owner is index.module_scope, index.single_assignment("v", index.module_scope)
            ('w = make()', True, None)
        """
        found = self.lookup(name, scope)
        if found is None or len(found[1]) != 1 or found[1][0].kind is not BindingKind.ASSIGN:
            return None
        statement = self.assignment_of(found[1][0].node)
        return (statement, found[0]) if statement is not None else None

    def literal_elements(self, expr: ast.expr, scope: Scope) -> list[ast.expr] | None:
        """The elements of a list or tuple written in place, or bound once to the name ``expr`` is.

        Examples:
            >>> index = ModuleIndex(ast.parse("FNS = (f, g)\\nuse(FNS)"), [ast.Assign])
            >>> [ast.unparse(e) for e in index.literal_elements(index.tree.body[1].value.args[0], index.module_scope)]
            ['f', 'g']
        """
        if isinstance(expr, ast.Name):
            assigned = self.single_assignment(expr.id, scope)
            if assigned is None:
                return None
            expr = assigned[0].value
        if isinstance(expr, ast.List | ast.Tuple) and not any(isinstance(e, ast.Starred) for e in expr.elts):
            return list(expr.elts)
        return None

    @functools.cached_property
    def _assignments(self) -> dict[int, ast.Assign]:
        """``id(target)`` -> the ``=`` statement that assigns it."""
        found: dict[int, ast.Assign] = {}
        for node, _ in self.nodes[ast.Assign]:
            assert isinstance(node, ast.Assign)
            for target in node.targets:
                found[id(target)] = node
        return found

    @functools.cached_property
    def _top_level_statements(self) -> frozenset[int]:
        return frozenset(id(statement) for statement in self.tree.body)


def _identifiers(index: ModuleIndex) -> frozenset[str]:
    names = {name.rsplit(".", 1)[-1] for name in _imported_names(index)}
    if ast.Name in index.nodes and ast.Attribute in index.nodes:
        names.update(node.id for node, _ in index.nodes[ast.Name])  # type: ignore[attr-defined]
        names.update(node.attr for node, _ in index.nodes[ast.Attribute])  # type: ignore[attr-defined]
        return frozenset(names)
    for node in ast.walk(index.tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return frozenset(names)


def _imported_names(index: ModuleIndex) -> frozenset[str]:
    return frozenset(
        binding.qualname
        for scope in index.scopes.values()
        for bindings in scope.bindings.values()
        for binding in bindings
        if binding.kind is BindingKind.IMPORT and binding.qualname
    )


def assigned_values(index: ModuleIndex) -> dict[int, list[ast.expr]]:
    """``id`` of an assigned expression -> the targets it is assigned to (``step = jax.jit(f)``: ``[step]``).

    Use through ``index.derived("assigned-values", assigned_values)`` so it is built once per check.
    """
    found: dict[int, list[ast.expr]] = {}
    for statement, _ in index.nodes.get(ast.Assign, ()):
        assert isinstance(statement, ast.Assign)
        found.setdefault(id(statement.value), []).extend(statement.targets)
    return found


def name_loads(index: ModuleIndex) -> dict[str, int]:
    """How many times each name is read in the module (built once per check through ``index.derived``)."""
    counts: dict[str, int] = {}
    for node, _ in index.nodes.get(ast.Name, ()):
        if type(node.ctx) is ast.Load:  # type: ignore[attr-defined]
            counts[node.id] = counts.get(node.id, 0) + 1  # type: ignore[attr-defined]
    return counts


def positional_params(node: FunctionNode) -> list[str]:
    """The names of the parameters that can be passed by position, in order."""
    return [a.arg for a in [*node.args.posonlyargs, *node.args.args]]


def all_params(node: FunctionNode) -> list[str]:
    """Every parameter name, including ``*args``, ``**kwargs`` and keyword-only ones."""
    args = node.args
    names = [*positional_params(node), *(a.arg for a in args.kwonlyargs)]
    names.extend(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    return names
