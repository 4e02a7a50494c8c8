"""Calls of the module's own functions: which call reaches which ``def``, and with which arguments.

Real programs put the bug one call away from the ``jit``: in a helper, a method, a loss function
handed to ``jax.value_and_grad``. The call graph resolves each call to the module's own function it
runs, so the interpreter can evaluate a callee on its caller's argument values, and give a function
the values its call sites pass. It resolves:

* ``helper(x)``: a name bound once to a ``def`` or a lambda, in scope at the call;
* ``self.method(x)`` inside a method: the method of the same class or of a base class defined in the
  module (``self`` is then already bound);
* ``jax.grad(loss)(params, batch)``, ``jax.vmap(f, in_axes=...)(xs)``, ``jax.jit(g)(x)`` and their
  kind: a transform that calls the function with the arguments it is given (vmap's are batched);
* ``functools.partial(f, a)(b)``: ``f`` called with ``a`` then ``b``.

A function whose name is used other than as the callee of a resolved call (stored, returned, passed
to an unknown function) *escapes*: other, unseen calls may pass anything, so its call sites say
nothing about its parameters. So does a function behind a decorator that is not a known transform.

Examples:
    >>> code = '''
    ... import jax
    ... def clip(x, limit=1.0):
    ...     return x
    ... @jax.jit
    ... def step(x):
    ...     return jax.grad(loss)(x) + clip(x, 2.0)
    ... def loss(w):
    ...     return (w * w).sum()
    ... def l1(w):
    ...     return abs(w).sum()
    ... LOSSES = {"l1": l1}
    ... '''
    >>> graph = CallGraph(ModuleIndex(ast.parse(code), [ast.Call]))
    >>> clip, step, loss, l1 = (graph.index.tree.body[i] for i in (1, 2, 3, 4))
    >>> [(site.callee.name, site.wrapper) for site in graph.calls_in(step)]
    [('loss', 'jax.grad'), ('clip', None)]
    >>> [ast.unparse(a) for a in graph.sites_of(clip)[0].args]
    ['x', '2.0']
    >>> graph.escapes(clip), graph.escapes(loss), graph.escapes(l1)
    (False, False, True)
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from xlalens.analyzers.knowledge.transforms import CALL_KINDS, FunctionSlot, transform_spec
from xlalens.analyzers.semantics.names import BindingKind, FunctionNode, ModuleIndex, Scope, positional_params

_TRANSPARENT_DECORATORS = frozenset({"jax.named_call", "functools.wraps", "builtins.staticmethod"})
"""Decorators that leave a function callable with its own parameters."""

MAPPING_TRANSFORMS = frozenset(name for name, kind in CALL_KINDS.items() if kind == "map")
"""Transforms whose function sees one slice of each mapped argument (``vmap``)."""


@dataclass(frozen=True, slots=True)
class CallSite:
    """One resolved call of a function of the module.

    Attributes:
        call: The call expression.
        caller: The scope the call sits in.
        callee: The function it runs.
        args: The positional arguments the function receives, in order (``partial``'s first).
        keywords: The keyword arguments it receives.
        bound: How many leading positional parameters are bound already (``self`` of a method).
        wrapper: The transform between the call and the function (``jax.grad``), if any.
        receiver: The expression whose value is bound to ``self`` (``model`` of ``model(x)``), if known.
    """

    call: ast.Call
    caller: Scope
    callee: FunctionNode
    args: tuple[ast.expr, ...]
    keywords: Mapping[str, ast.expr]
    bound: int = 0
    wrapper: str | None = None
    receiver: ast.expr | None = None

    @property
    def mapped(self) -> bool:
        """Whether the function sees slices of the arguments (``vmap``)."""
        return self.wrapper in MAPPING_TRANSFORMS

    def parameters(self) -> dict[str, ast.expr] | None:
        """Parameter name -> the argument expression passed for it; ``None`` when they do not line up."""
        positional = positional_params(self.callee)[self.bound :]
        if len(self.args) > len(positional) and self.callee.args.vararg is None:
            return None
        bound = dict(zip(positional, self.args, strict=False))
        names = {a.arg for a in [*self.callee.args.posonlyargs, *self.callee.args.args, *self.callee.args.kwonlyargs]}
        for name, expr in self.keywords.items():
            if name in bound or (name not in names and self.callee.args.kwarg is None):
                return None
            if name in names:
                bound[name] = expr
        return bound


class CallGraph:
    """The module's calls of its own functions, resolved once per check.

    Args:
        index: The module; its ``nodes`` must hold the calls (the engine always collects them).
    """

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        # Escape analysis reads every name and attribute: an index of other node types walks again.
        wanted = {ast.Call, ast.Name, ast.Attribute}
        self._nodes_index = index if wanted <= index.nodes.keys() else ModuleIndex(index.tree, wanted)
        self._by_callee: dict[int, list[CallSite]] = {}
        self._by_caller: dict[int, list[CallSite]] = {}
        self._resolved_funcs: set[int] = set()
        self._aliases: dict[str, set[int]] = {}
        self._attribute_refs: dict[str, list[tuple[ast.Attribute, Scope]]] = {}
        callable_names = self._callable_names()
        for call, scope in self._nodes_index.nodes[ast.Call]:
            assert isinstance(call, ast.Call)
            if _callee_name(call) not in callable_names:
                continue
            site = self._resolve(call, scope)
            if site is None:
                continue
            self._by_callee.setdefault(id(site.callee), []).append(site)
            owner = scope.enclosing_function()
            self._by_caller.setdefault(id(owner.node) if owner else id(index.tree), []).append(site)
        for sites in (*self._by_callee.values(), *self._by_caller.values()):
            sites.sort(key=lambda site: (site.call.lineno, site.call.col_offset))
        self._escaping: set[int] | None = None

    def _callable_names(self) -> frozenset[str]:
        """Names a call must end in to reach one of the module's functions: its defs, its classes, and
        the names bound to a transform or ``partial`` of something (``step = jax.jit(train_step)``)."""
        index = self._nodes_index
        names = {scope.node.name for scope in index.functions if not isinstance(scope.node, ast.Lambda)}  # type: ignore[union-attr]
        names.update(scope.node.name for scope in index.scopes.values() if scope.is_class)  # type: ignore[attr-defined]
        names.add("<lambda>")
        for statement, _ in index.nodes.get(ast.Assign, ()):
            assert isinstance(statement, ast.Assign)
            if isinstance(statement.value, ast.Call | ast.Lambda):
                names.update(target.id for target in statement.targets if isinstance(target, ast.Name))
        return frozenset(names)

    def sites_of(self, function: FunctionNode) -> Sequence[CallSite]:
        """The resolved calls of ``function``, in source order."""
        return self._by_callee.get(id(function), ())

    def calls_in(self, function: FunctionNode | ast.Module) -> Sequence[CallSite]:
        """The resolved calls made directly in ``function``'s body (not in functions nested in it)."""
        return self._by_caller.get(id(function), ())

    def escapes(self, function: FunctionNode) -> bool:
        """Whether ``function`` may be called from somewhere this graph does not see.

        A method named by ``obj.method`` attributes the graph did not resolve escapes unless each
        of them is the callee of a call the interpreter resolved through values (see
        :meth:`attribute_references`); this says it escapes then.
        """
        if self._escaping is None:
            self._escaping = self._find_escaping()
        return id(function) in self._escaping or bool(self.attribute_references(function))

    def escapes_by_name(self, function: FunctionNode) -> bool:
        """Whether ``function`` escapes other than through ``obj.method`` attributes."""
        if self._escaping is None:
            self._escaping = self._find_escaping()
        return id(function) in self._escaping

    def attribute_references(self, function: FunctionNode) -> Sequence[tuple[ast.Attribute, Scope]]:
        """The ``obj.name`` attributes (of ``function``'s name) the graph did not resolve, with their scopes."""
        if self._escaping is None:
            self._escaping = self._find_escaping()
        if isinstance(function, ast.Lambda):
            return ()
        return self._attribute_refs.get(function.name, ())

    # -- resolution --------------------------------------------------------------------------------

    def _resolve(self, call: ast.Call, scope: Scope) -> CallSite | None:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
        args: tuple[ast.expr, ...] = tuple(call.args)
        func = call.func
        wrapper: str | None = None
        alias = self._alias(func, scope) if isinstance(func, ast.Name) else None
        if alias is not None:
            func, scope_of_alias = alias
            self._resolved_funcs.add(id(call.func))
        else:
            scope_of_alias = scope
        inner_scope = scope_of_alias
        while isinstance(func, ast.Call):
            inner = self.index.qualname(func.func, inner_scope)
            if inner == "functools.partial" and func.args and not any(isinstance(a, ast.Starred) for a in func.args):
                if any(k.arg is None for k in func.keywords):
                    return None
                args = (*func.args[1:], *args)
                keywords = {**{k.arg: k.value for k in func.keywords if k.arg is not None}, **keywords}
                func = func.args[0]
            elif inner in CALL_KINDS and func.args and wrapper is None:
                wrapper = inner
                func = func.args[0]
            else:
                return None
        callee, bound = self._callee(func, inner_scope)
        if callee is None:
            return None
        self._resolved_funcs.add(id(func))
        receiver = func.value if bound == 1 and isinstance(func, ast.Attribute) else None
        return CallSite(call, scope, callee, args, keywords, bound, wrapper, receiver)

    def _alias(self, name: ast.Name, scope: Scope) -> tuple[ast.Call, Scope] | None:
        """``step`` of ``step = jax.jit(train_step, ...)`` (bound once): the wrapping call and its scope."""
        assigned = self.index.single_assignment(name.id, scope)
        if assigned is None:
            return None
        statement, owner = assigned
        if not isinstance(statement.value, ast.Call):
            return None
        head = self.index.qualname(statement.value.func, owner)
        if head not in CALL_KINDS and head != "functools.partial":
            return None
        self._aliases.setdefault(name.id, set()).add(id(statement))
        return statement.value, owner

    def _callee(self, func: ast.expr, scope: Scope) -> tuple[FunctionNode | None, int]:
        if isinstance(func, ast.Lambda):
            return func, 0
        if isinstance(func, ast.Name):
            target = self.index.local_function(func.id, scope)
            if target is None:
                return self._constructor(func, scope), 1
            return (target, 0) if self._plain(target, scope) else (None, 0)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            method = self.method_of_self(func.value.id, func.attr, scope)
            return (method, 1) if method is not None else (None, 0)
        return None, 0

    def _constructor(self, name: ast.Name, scope: Scope) -> ast.FunctionDef | None:
        """The ``__init__`` that ``Name(...)`` runs, when ``Name`` is one of the module's classes (bound once)
        whose own or inherited ``__init__`` is defined in the module."""
        found = self.index.lookup(name.id, scope)
        if found is None or len(found[1]) != 1 or found[1][0].kind is not BindingKind.CLASS:
            return None
        class_node = found[1][0].node
        if not isinstance(class_node, ast.ClassDef) or class_node.decorator_list:
            return None
        init = self.find_method(class_node, "__init__", set())
        return init if init is not None and self._plain_method(init) else None

    def _plain(self, function: FunctionNode, scope: Scope) -> bool:
        """Whether calling ``function`` by name runs its body on the given arguments (no unknown decorator)."""
        if isinstance(function, ast.Lambda):
            return True
        owner = self.index.scope_of(function)
        outer = owner.parent if owner is not None and owner.parent is not None else scope
        for decorator in function.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = self.index.qualname(target, outer)
            if name in _TRANSPARENT_DECORATORS:
                continue
            spec = transform_spec(name)
            if spec is not None and spec.slot is FunctionSlot.FIRST:
                continue
            if name == "functools.partial" and isinstance(decorator, ast.Call) and decorator.args:
                inner = transform_spec(self.index.qualname(decorator.args[0], outer))
                if inner is not None and inner.slot is FunctionSlot.FIRST:
                    continue
            return False
        return True

    def method_of_self(self, receiver: str, method: str, scope: Scope) -> FunctionNode | None:
        """``method`` of the class whose method ``scope`` is in, when ``receiver`` is that method's ``self``.

        Lambdas and functions nested in the method see its ``self`` too, unless they bind the name.
        """
        function = scope.enclosing_function()
        while function is not None and receiver not in function.bindings and function.parent is not None:
            function = function.parent.enclosing_function()
        if function is None or not isinstance(function.node, ast.FunctionDef) or function.parent is None:
            return None
        if not function.parent.is_class or positional_params(function.node)[:1] != [receiver]:
            return None
        if any(_decorator_name(d) in ("staticmethod", "classmethod") for d in function.node.decorator_list):
            return None
        class_node = function.parent.node
        assert isinstance(class_node, ast.ClassDef)
        found = self.find_method(class_node, method, set())
        special = ("staticmethod", "classmethod", "property")
        if found is None or any(_decorator_name(d) in special for d in found.decorator_list):
            return None
        return found if self._plain_method(found) else None

    def _plain_method(self, method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        scope = self.index.scope_of(method)
        return scope is not None and scope.parent is not None and self._plain(method, scope.parent)

    def find_method(self, class_node: ast.ClassDef, name: str, seen: set[int]) -> ast.FunctionDef | None:
        """The ``def name`` of ``class_node`` or of a base class defined in the module (depth first, like the MRO
        of single inheritance)."""
        if id(class_node) in seen:
            return None
        seen.add(id(class_node))
        for statement in class_node.body:
            if isinstance(statement, ast.FunctionDef) and statement.name == name:
                return statement
        scope = self.index.scope_of(class_node)
        outer = scope.parent if scope is not None and scope.parent is not None else self.index.module_scope
        for base in class_node.bases:
            if isinstance(base, ast.Name):
                found = self.index.lookup(base.id, outer)
                if found is not None and len(found[1]) == 1 and isinstance(found[1][0].node, ast.ClassDef):
                    method = self.find_method(found[1][0].node, name, seen)
                    if method is not None:
                        return method
        return None

    # -- escape analysis ---------------------------------------------------------------------------

    def _find_escaping(self) -> set[int]:
        """Functions referenced other than as the callee of a resolved call, or called by Python itself."""
        index = self._nodes_index
        escaping: set[int] = set()
        by_name: dict[str, list[FunctionNode]] = {}
        constructors: dict[str, list[FunctionNode]] = {}
        for scope in index.functions:
            node = scope.node
            if isinstance(node, ast.Lambda):
                continue  # reached only through the name it is assigned to, or in place
            by_name.setdefault(node.name, []).append(node)
            parent = scope.parent or index.module_scope
            if parent.is_class and node.name == "__init__":
                constructors.setdefault(parent.node.name, []).append(node)  # type: ignore[attr-defined]
                if not self._plain(node, parent):
                    escaping.add(id(node))
            elif (parent.is_class and node.name.startswith("__")) or not self._plain(node, parent):
                escaping.add(id(node))
        for name, scope in index.nodes.get(ast.Name, ()):
            assert isinstance(name, ast.Name)
            if type(name.ctx) is not ast.Load or id(name) in self._resolved_funcs:
                continue
            # A class handed on (a base class, `cls = Model`, `super()` reaching it): Python may run its
            # `__init__` where no resolved call shows it. Classes of the same name count together.
            escaping.update(id(init) for init in constructors.get(name.id, ()))
            if name.id in by_name:
                target = index.local_function(name.id, scope)
                if target is not None:
                    escaping.add(id(target))
            if name.id in self._aliases:
                # `step = jax.jit(train_step)` handed on as `step`: train_step may run anywhere.
                alias = self._alias(name, scope)
                for inner in ast.walk(alias[0]) if alias is not None else ():
                    if isinstance(inner, ast.Name) and inner.id in by_name:
                        target = index.local_function(inner.id, alias[1])
                        if target is not None:
                            escaping.add(id(target))
        for attribute, scope in index.nodes.get(ast.Attribute, ()):
            assert isinstance(attribute, ast.Attribute)
            if attribute.attr in by_name and id(attribute) not in self._resolved_funcs:
                if index.qualname(attribute, scope) is not None:
                    continue  # `np.concatenate`: an imported module's attribute, not this module's function
                # `obj.method` passed around, or called on a receiver only values tell: any method of that name.
                self._attribute_refs.setdefault(attribute.attr, []).append((attribute, scope))
        module_level = {id(n) for n in index.tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        return escaping | (module_level & self._exported())

    def _exported(self) -> set[int]:
        """Module-level functions named in ``__all__`` are called from other modules."""
        for statement in self.index.tree.body:
            names_all = isinstance(statement, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in statement.targets
            )
            if names_all and isinstance(statement.value, ast.List | ast.Tuple):
                exported = {e.value for e in statement.value.elts if isinstance(e, ast.Constant)}
                return {
                    id(n)
                    for n in self.index.tree.body
                    if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name in exported
                }
        return set()


def _callee_name(call: ast.Call) -> str | None:
    """The name a call's callee ends in, through wrapping calls (``jax.grad(loss)(x)``: ``loss``)."""
    func = call.func
    while isinstance(func, ast.Call):
        if not func.args:
            return None
        func = func.args[0]
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Lambda):
        return "<lambda>"
    return func.attr if isinstance(func, ast.Attribute) else None


def _decorator_name(decorator: ast.expr) -> str | None:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else None


def call_graph(index: ModuleIndex) -> CallGraph:
    """The call graph of the module ``index`` describes, built once per check."""
    return index.derived("call-graph", CallGraph)


@dataclass(frozen=True, eq=False)
class GatedCallFilter:
    """A rule's ``call_filter`` whose first test is about the whole module, asked once per file.

    A filter such as "may this call run a vmapped function" starts with a question whose answer
    is the module's (does it spell ``vmap`` at all?). Asked of every call, that question alone is a
    noticeable share of a check; the engine asks ``module_may_pass`` once per file instead, and
    does not ask ``accepts`` in a module that fails it. Called directly, the filter asks both.

    Attributes:
        accepts: The test of one call, for a module that passed ``module_may_pass``.
        module_may_pass: Whether any call of the module can pass.
    """

    accepts: Callable[[ast.Call, Scope, ModuleIndex], bool]
    module_may_pass: Callable[[ModuleIndex], bool]

    def __call__(self, call: ast.Call, scope: Scope, index: ModuleIndex) -> bool:
        return self.module_may_pass(index) and self.accepts(call, scope, index)


def may_call_transformed(*spellings: str) -> GatedCallFilter:
    """A rule's ``call_filter`` for calls that may run a function transformed by one of ``spellings``.

    A rule about what ``jax.vmap(f)(x)`` or ``step = jax.grad(loss); step(w)`` do evaluates the
    callee of a call to learn whether it is such a function: on every call of a module, that is
    most of a check's time. Only a module that spells one of the transforms (``vmap``, ``grad``)
    can make one, and a callee that names an imported function or a plain local ``def`` is not
    one, so these calls are refused before anything is evaluated.

    Examples:
        >>> tree = ast.parse("import jax\\ndef f(x): return x\\ng = jax.vmap(f)\\ng(x)\\nf(x)\\njax.numpy.sum(x)")
        >>> index = ModuleIndex(tree, [ast.Call])
        >>> vmapped, grads = may_call_transformed("vmap"), may_call_transformed("grad", "value_and_grad")
        >>> [vmapped(tree.body[k].value, index.module_scope, index) for k in (3, 4, 5)]
        [True, False, False]
        >>> grads(tree.body[3].value, index.module_scope, index)
        False
    """

    def accepts(call: ast.Call, scope: Scope, index: ModuleIndex) -> bool:
        func = call.func
        if not isinstance(func, ast.Name | ast.Attribute | ast.Call):
            return False
        if isinstance(func, ast.Call):
            return True
        if index.qualname(func, scope) is not None:
            return False
        if isinstance(func, ast.Name):
            local = index.local_function(func.id, scope)
            return not isinstance(local, ast.FunctionDef | ast.AsyncFunctionDef) or bool(local.decorator_list)
        return func.attr in index.derived("attributes-holding-values", _attributes_holding_values)

    return GatedCallFilter(accepts, lambda index: any(index.mentions(spelling) for spelling in spellings))


def _attributes_holding_values(index: ModuleIndex) -> frozenset[str]:
    """Attribute names that may hold a value the module made: assigned as attributes (``self.step = ...``),
    or bound in a class body other than by an undecorated ``def`` (class attributes, fields, decorated methods).

    ``x.reshape(...)`` or ``opt.update(...)`` on a method no class of the module assigns cannot run a
    transformed function the module built.
    """
    names = {
        node.attr  # type: ignore[attr-defined]
        for node, _ in index.nodes.get(ast.Attribute, ())
        if not isinstance(node.ctx, ast.Load)  # type: ignore[attr-defined]
    }
    for scope in index.scopes.values():
        if not scope.is_class:
            continue
        for name, bindings in scope.bindings.items():
            for binding in bindings:
                node = binding.node
                plain_def = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.decorator_list
                if not plain_def:
                    names.add(name)
    return frozenset(names)
