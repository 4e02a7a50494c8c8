"""Where a module expects exceptions: the bodies of ``with assertRaises(...)``-like blocks and ``try``.

Each region is a span of source with the exception class names it expects. Classes are matched by
their last name (``jax.errors.
ConcretizationTypeError`` and ``ConcretizationTypeError`` are the same), which is how tests spell them.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xlalens.analyzers.knowledge.exceptions import EXPECTING_CONTEXTS, caught_by
from xlalens.analyzers.semantics.calls import CallSite
from xlalens.analyzers.semantics.names import FunctionNode, ModuleIndex, Scope

_TOO_BROAD = frozenset({"Exception", "BaseException"})


@dataclass(frozen=True, slots=True)
class ExpectingRegion:
    """A span of statements that expects some exceptions.

    Attributes:
        start: ``(line, column)`` of its first statement.
        end: ``(line, column)`` where its last statement ends.
        names: The class names it expects.
    """

    start: tuple[int, int]
    end: tuple[int, int]
    names: frozenset[str]

    def expects(self, raised: str) -> bool:
        return caught_by(raised, self.names)


def _class_names(expr: ast.expr | None) -> frozenset[str] | None:
    """The last names of the classes an ``except`` clause or an ``assertRaises`` argument names."""
    if expr is None:
        return None  # a bare `except:`
    parts = expr.elts if isinstance(expr, ast.Tuple) else [expr]
    names = {p.id if isinstance(p, ast.Name) else p.attr for p in parts if isinstance(p, ast.Name | ast.Attribute)}
    return frozenset(names)


def _span(body: list[ast.stmt]) -> tuple[tuple[int, int], tuple[int, int]]:
    last = body[-1]
    return (body[0].lineno, body[0].col_offset), (last.end_lineno or last.lineno, last.end_col_offset or 0)


def expecting_regions(index: ModuleIndex) -> list[ExpectingRegion]:
    """Every region of the module that expects exceptions (``with`` and ``try`` must be collected)."""
    regions: list[ExpectingRegion] = []
    for node, _ in index.nodes.get(ast.With, ()):
        assert isinstance(node, ast.With)
        for item in node.items:
            context = item.context_expr
            if not (isinstance(context, ast.Call) and context.args and node.body):
                continue
            func = context.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if called in EXPECTING_CONTEXTS:
                names = _class_names(context.args[0])
                if names:
                    regions.append(ExpectingRegion(*_span(node.body), names))
    for try_type in (ast.Try, ast.TryStar):
        for node, _ in index.nodes.get(try_type, ()):
            assert isinstance(node, ast.Try | ast.TryStar)
            if not node.body or not node.handlers:
                continue
            # `except Exception:` and a bare `except:` guard against anything: they say nothing about
            # an error the code means to provoke, and would hide a real one.
            caught = {name for h in node.handlers for name in (_class_names(h.type) or ()) if name not in _TOO_BROAD}
            if caught:
                regions.append(ExpectingRegion(*_span(node.body), frozenset(caught)))
    return regions


_CALLER_DEPTH = 2
"""How many callers up a function counts as expected when every call of it is (a test helper)."""


def expected_here(
    index: ModuleIndex,
    node: ast.AST,
    scope: Scope,
    raises: tuple[str, ...],
    sites_of: Callable[[FunctionNode], Sequence[CallSite]],
) -> bool:
    """Whether ``node`` (in ``scope``) runs only where one of the ``raises`` classes is expected.

    That is: it sits in an expecting region, or in a function every call of which does (for a
    helper the test calls inside ``assertRaises``), up to :data:`_CALLER_DEPTH` callers up.
    ``sites_of`` gives the module's calls of a function.
    """
    if not raises or not hasattr(node, "lineno"):
        return False
    regions = [r for r in index.derived("expecting-regions", expecting_regions) if any(r.expects(n) for n in raises)]
    if not regions:
        return False
    return _expected(node, scope, regions, sites_of, _CALLER_DEPTH, set())


def _expected(
    node: ast.AST,
    scope: Scope,
    regions: list[ExpectingRegion],
    sites_of: Callable[[FunctionNode], Sequence[CallSite]],
    depth: int,
    seen: set[int],
) -> bool:
    position = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
    if any(r.start <= position <= r.end for r in regions):
        return True
    function = scope.enclosing_function()
    if depth == 0 or function is None or id(function.node) in seen:
        return False
    seen.add(id(function.node))
    sites = sites_of(function.node)  # type: ignore[arg-type]
    return bool(sites) and all(_expected(s.call, s.caller, regions, sites_of, depth - 1, seen) for s in sites)
