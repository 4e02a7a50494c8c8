"""Index maps as the BlockSpec calculator reads them: ``lambda i, j: (i, 0)`` over a grid.

A Pallas index map turns the grid indices of one kernel step into block indices, one per array
dimension. The calculator accepts the arithmetic subset real index maps use: a ``lambda`` whose
parameters name the grid axes and whose body is a tuple (one entry per array dimension, or a
single expression for rank 1) built from those names, integer literals, ``+ - * // %``, unary
minus, parentheses, ``min(…)`` and ``max(…)``. The text is read with :mod:`ast` and evaluated by a
small tree walker; it is never executed.

For each array dimension the visited block indices are found by enumerating the grid axes that
dimension depends on. When those axes have more than :data:`ENUMERATION_LIMIT` points, only the
corners are evaluated: every supported operation except ``%`` is monotone in each grid index, so
the corners give the exact lowest and highest index, but not the gaps in between.

Examples:
    >>> index_map = parse_index_map("lambda i, j: (i * 2, 0)")
    >>> index_map.text
    'lambda i, j: (i * 2, 0)'
    >>> visits = visit(index_map, (3, 4), needed=(8, 1))
    >>> visits.dims[0].values, visits.dims[1].values, visits.in_range_steps
    (frozenset({0, 2, 4}), frozenset({0}), 12)
"""

from __future__ import annotations

import ast
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

ENUMERATION_LIMIT = 1 << 16
"""The most grid points enumerated for the dimensions that share grid axes; beyond it, corners only."""

_MAX_DEPTH = 100
"""Real index maps nest a few levels; 900 nested minus signs would overflow the evaluator's recursion."""
_MAX_TEXT = 2000
_NOT_A_MAP = "{!r} is not blocked, constant or a lambda such as lambda i, j: (i, 0)"
_MAX_LITERAL = 2**62

Evaluator = Callable[[Sequence[int]], int]


@dataclass(frozen=True)
class IndexMap:
    """A parsed index map.

    Attributes:
        text: The normalized text (``ast.unparse`` of the lambda).
        params: The grid axis names, in order.
        exprs: One expression per array dimension.
    """

    text: str
    params: tuple[str, ...]
    exprs: tuple[ast.expr, ...]

    @property
    def rank(self) -> int:
        """How many block indices the map returns."""
        return len(self.exprs)

    def axes_of(self, dim: int) -> tuple[int, ...]:
        """The grid axes block index ``dim`` depends on."""
        names = {n.id for n in ast.walk(self.exprs[dim]) if isinstance(n, ast.Name)}
        return tuple(axis for axis, name in enumerate(self.params) if name in names)

    def all_zero(self) -> bool:
        """Whether every block index is the literal 0 (Pallas then calls the window trivial)."""
        return all(isinstance(e, ast.Constant) and e.value == 0 for e in self.exprs)

    def monotone(self, dim: int) -> bool:
        """Whether block index ``dim`` is monotone in each grid index (no ``%``), so corners bound it."""
        return not any(isinstance(n, ast.Mod) for n in ast.walk(self.exprs[dim]))


def parse_index_map(text: str) -> IndexMap:
    """Read ``lambda <axes>: (<index>, …)``.

    Raises:
        ValueError: naming what is not supported.

    Examples:
        >>> parse_index_map("lambda i: (i, min(i + 1, 3))").text
        'lambda i: (i, min(i + 1, 3))'
        >>> parse_index_map("lambda i: (i.x, 0)")
        Traceback (most recent call last):
        ...
        ValueError: i.x is not supported in an index map; use grid indices, integers, + - * // %, min and max
    """
    stripped = text.strip()
    if len(stripped) > _MAX_TEXT:
        raise ValueError(f"is longer than {_MAX_TEXT} characters")
    try:
        tree = ast.parse(stripped, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ValueError(_NOT_A_MAP.format(stripped[:40])) from None
    depth = _depth(tree)
    if depth > _MAX_DEPTH:
        raise ValueError(f"nests {depth} levels deep; an index map may nest {_MAX_DEPTH}")
    function = tree.body
    if not isinstance(function, ast.Lambda):
        raise ValueError(_NOT_A_MAP.format(stripped[:40]))
    args = function.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs:
        raise ValueError("the lambda must take plain positional parameters, one per grid axis")
    params = tuple(arg.arg for arg in args.args)
    if len(set(params)) != len(params):
        raise ValueError("the lambda's parameters must have different names")
    body = function.body
    exprs = tuple(body.elts) if isinstance(body, ast.Tuple | ast.List) else (body,)
    if not exprs:
        raise ValueError("the lambda returns no block index")
    for expr in exprs:
        _check_expr(expr, params)
    normalized = ast.Lambda(args=args, body=ast.Tuple(elts=list(exprs), ctx=ast.Load()))
    return IndexMap(ast.unparse(normalized), params, exprs)


def _depth(tree: ast.AST) -> int:
    """How deep ``tree`` nests, counted without recursion (reading and evaluating a map recurse this deep)."""
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _check_expr(expr: ast.expr, params: tuple[str, ...]) -> None:
    for node in ast.walk(expr):
        if isinstance(node, ast.Name) and node.id in params and isinstance(node.ctx, ast.Load):
            continue
        if isinstance(node, ast.Constant) and type(node.value) is int and abs(node.value) < _MAX_LITERAL:
            continue
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.FloorDiv | ast.Mod):
            continue
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            continue
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("min", "max")
            and len(node.args) >= 2
            and not node.keywords
        ):
            continue
        if isinstance(node, ast.Load | ast.operator | ast.unaryop) or (
            isinstance(node, ast.Name) and node.id in ("min", "max")
        ):
            continue
        raise ValueError(
            f"{ast.unparse(node)[:40]} is not supported in an index map; use grid indices, integers, "
            "+ - * // %, min and max"
        )


def evaluator(index_map: IndexMap, dim: int) -> Evaluator:
    """A function from grid indices to block index ``dim``.

    Examples:
        >>> evaluator(parse_index_map("lambda i, j: (i // 2 + j, 0)"), 0)((5, 1))
        3
    """
    return _compile(index_map.exprs[dim], {name: k for k, name in enumerate(index_map.params)})


def _compile(expr: ast.expr, axes: dict[str, int]) -> Evaluator:
    # Closures rather than eval: the text comes from user code and is only ever read.
    if isinstance(expr, ast.Constant):
        value = int(expr.value)
        return lambda point: value
    if isinstance(expr, ast.Name):
        axis = axes[expr.id]
        return lambda point: point[axis]
    if isinstance(expr, ast.UnaryOp):
        operand = _compile(expr.operand, axes)
        if isinstance(expr.op, ast.USub):
            return lambda point: -operand(point)
        return operand
    if isinstance(expr, ast.Call):
        parts = [_compile(arg, axes) for arg in expr.args]
        pick = min if expr.func.id == "min" else max  # type: ignore[attr-defined]
        return lambda point: pick(part(point) for part in parts)
    assert isinstance(expr, ast.BinOp)
    left, right = _compile(expr.left, axes), _compile(expr.right, axes)
    op = expr.op
    if isinstance(op, ast.Add):
        return lambda point: left(point) + right(point)
    if isinstance(op, ast.Sub):
        return lambda point: left(point) - right(point)
    if isinstance(op, ast.Mult):
        return lambda point: left(point) * right(point)
    if isinstance(op, ast.FloorDiv):
        return lambda point: _floordiv(left(point), right(point))
    return lambda point: _mod(left(point), right(point))


def _floordiv(a: int, b: int) -> int:
    if b == 0:
        raise ValueError("an index map divides by zero")
    return a // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        raise ValueError("an index map takes a remainder by zero")
    return a % b


@dataclass(frozen=True)
class DimVisits:
    """The block indices one array dimension takes over the grid.

    Attributes:
        low: The smallest block index.
        high: The largest block index.
        values: Every block index taken, when the grid was enumerated; ``None`` when only the
            corners were evaluated.
        axes: The grid axes the index depends on (empty for a constant).
    """

    low: int
    high: int
    values: frozenset[int] | None
    axes: tuple[int, ...]

    @property
    def exact(self) -> bool:
        """Whether every index taken is known (not just the extremes)."""
        return self.values is not None

    def takes(self, index: int) -> bool | None:
        """Whether block index ``index`` is visited; ``None`` when only the extremes are known."""
        if not self.low <= index <= self.high:
            return False
        if self.values is None:
            return None
        return index in self.values


@dataclass(frozen=True)
class Visits:
    """What an index map does over a grid.

    Attributes:
        dims: Per array dimension, the block indices taken.
        in_range_steps: Grid steps whose block index is in ``[0, needed)`` on every dimension;
            ``None`` when the grid was too large to count them.
    """

    dims: tuple[DimVisits, ...]
    in_range_steps: int | None


def visit(index_map: IndexMap, grid: Sequence[int], needed: Sequence[int]) -> Visits:
    """Evaluate ``index_map`` over ``grid``; ``needed`` is the block count per array dimension.

    Dimensions that share grid axes are enumerated together, so the count of in-range steps is
    exact whenever each group of axes has at most :data:`ENUMERATION_LIMIT` points.

    Raises:
        ValueError: if the parameters do not match the grid, the map's rank does not match
            ``needed``, or the map divides by zero somewhere on the grid.

    Examples:
        >>> v = visit(parse_index_map("lambda i: (i * 128, 0)"), (4,), needed=(4, 1))
        >>> v.dims[0].low, v.dims[0].high, v.in_range_steps
        (0, 384, 1)
    """
    if len(index_map.params) != len(grid):
        raise ValueError(f"takes {len(index_map.params)} grid indices but the grid has {len(grid)} axes")
    if index_map.rank != len(needed):
        raise ValueError(f"returns {index_map.rank} block indices but the array has {len(needed)} dimensions")
    groups = _groups(index_map)
    dims: dict[int, DimVisits] = {}
    in_range: int | None = 1
    used: set[int] = set()
    for axes, members in groups:
        used.update(axes)
        functions = [(dim, evaluator(index_map, dim)) for dim in members]
        count = math.prod(grid[axis] for axis in axes)
        if count <= ENUMERATION_LIMIT:
            seen: dict[int, set[int]] = {dim: set() for dim in members}
            inside = 0
            for point in _points(grid, axes):
                ok = True
                for dim, function in functions:
                    value = function(point)
                    seen[dim].add(value)
                    ok = ok and 0 <= value < needed[dim]
                inside += ok
            for dim in members:
                values = frozenset(seen[dim])
                dims[dim] = DimVisits(min(values), max(values), values, index_map.axes_of(dim))
            in_range = None if in_range is None else in_range * inside
            continue
        in_range = None
        for dim, function in functions:
            if not index_map.monotone(dim):
                raise ValueError(
                    f"block index {dim} uses % over {count:,} grid points; "
                    f"only up to {ENUMERATION_LIMIT:,} are enumerated"
                )
            corners = [function(point) for point in _points(grid, axes, corners=True)]
            dims[dim] = DimVisits(min(corners), max(corners), None, index_map.axes_of(dim))
    if in_range is not None:
        in_range *= math.prod(size for axis, size in enumerate(grid) if axis not in used)
    return Visits(tuple(dims[dim] for dim in range(index_map.rank)), in_range)


def _groups(index_map: IndexMap) -> list[tuple[tuple[int, ...], list[int]]]:
    """Dimensions grouped by shared grid axes: (the group's axes, its dimensions)."""
    groups: list[tuple[set[int], list[int]]] = []
    for dim in range(index_map.rank):
        axes = set(index_map.axes_of(dim))
        joined = [group for group in groups if group[0] & axes]
        for group in joined:
            groups.remove(group)
            axes |= group[0]
        members = sorted([dim, *(d for group in joined for d in group[1])])
        groups.append((axes, members))
    return [(tuple(sorted(axes)), members) for axes, members in groups]


def _points(grid: Sequence[int], axes: tuple[int, ...], *, corners: bool = False) -> itertools.product[tuple[int, ...]]:
    """Grid points varying only ``axes`` (the others at 0); with ``corners``, only first and last."""
    ranges = [
        ((0, grid[axis] - 1) if corners else range(grid[axis])) if axis in axes else (0,) for axis in range(len(grid))
    ]
    return itertools.product(*ranges)
