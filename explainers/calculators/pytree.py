"""Pytree calculator: the leaves, key paths and tree definition JAX gives a pytree, and whether two match.

``jax.tree_util.tree_flatten`` walks a pytree depth first: tuple and list children in order, dict
children in sorted key order, and ``None`` as a node with no children (so it is no leaf).
``tree_flatten_with_path`` gives each leaf its key path, which ``keystr`` writes as ``[0]['a']``;
the root leaf of a one-leaf tree has the empty path. The tree definition (``PyTreeDef``) is the
structure with ``*`` for each leaf; two trees have equal definitions only when their containers
match kind for kind and key for key (a tuple never equals a list), which ``jit``'s cache, ``scan``'s
carry and ``tree_map`` over several trees all require.

Text syntax (the ``tree`` and ``other`` fields) is the carry-check calculator's: a leaf is an array
type such as ``f32[3]`` (``~f32[]`` for a weakly typed Python scalar), containers are tuples
``(a, b)``, lists ``[a, b]``, dicts ``{'m': a, n: b}`` and ``None``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xlalens.explainers.calculators.carry_check import Leaf, Tree, format_tree, parse_tree
from xlalens.explainers.calculators.fields import Field
from xlalens.explainers.calculators.pytree_text import Container
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator


def treedef_text(tree: Tree) -> str:
    """``str(tree_structure(tree))`` as JAX 0.10 writes it.

    Examples:
        >>> treedef_text(parse_tree("{'b': f32[2], 'a': (f32[1], [f32[1], None])}"))
        "PyTreeDef({'a': (*, [*, None]), 'b': *})"
        >>> treedef_text(parse_tree("(f32[3],)")), treedef_text(parse_tree("f32[3]"))
        ('PyTreeDef((*,))', 'PyTreeDef(*)')
    """
    return f"PyTreeDef({_structure(tree)})"


def _structure(tree: Tree) -> str:
    if isinstance(tree, Leaf):
        return "*"
    return str(Container(tree.kind, tuple(_Star(_structure(child)) for child in tree.children), tree.keys))


@dataclass(frozen=True)
class _Star:
    """A child already written as structure text (``*`` or a nested container)."""

    text: str

    def __str__(self) -> str:
        return self.text


def leaf_paths(tree: Tree, prefix: str = "") -> Iterator[tuple[str, Leaf]]:
    """``(keystr(path), leaf)`` for every leaf, in flattening order.

    Examples:
        >>> [path for path, _ in leaf_paths(parse_tree("{'b': f32[2], 'a': (f32[1], [f32[1], None])}"))]
        ["['a'][0]", "['a'][1][0]", "['b']"]
    """
    if isinstance(tree, Leaf):
        yield prefix, tree
        return
    for index, child in enumerate(tree.children):
        key = f"[{tree.keys[index]!r}]" if tree.kind == "dict" else f"[{index}]"
        yield from leaf_paths(child, prefix + key)


def _node_count(tree: Tree) -> int:
    if isinstance(tree, Leaf):
        return 1
    return 1 + sum(_node_count(child) for child in tree.children)


def first_difference(first: Tree, second: Tree, path: str = "") -> str | None:
    """Where two structures first differ (a key path and what differs there), or ``None`` when equal.

    Examples:
        >>> first_difference(parse_tree("(f32[3], i32[])"), parse_tree("[f32[3], i32[]]"))
        'at the root: a tuple of 2 vs a list of 2'
        >>> first_difference(parse_tree("{'a': f32[], 'b': None}"), parse_tree("{'a': f32[], 'b': f32[]}"))
        "at ['b']: None vs a leaf"
    """
    where = f"at {path}" if path else "at the root"
    if isinstance(first, Leaf) or isinstance(second, Leaf):
        if isinstance(first, Leaf) and isinstance(second, Leaf):
            return None
        return f"{where}: {_node_text(first)} vs {_node_text(second)}"
    if first.kind != second.kind or len(first.children) != len(second.children) or first.keys != second.keys:
        return f"{where}: {_node_text(first)} vs {_node_text(second)}"
    for index, (left, right) in enumerate(zip(first.children, second.children, strict=True)):
        key = f"[{first.keys[index]!r}]" if first.kind == "dict" else f"[{index}]"
        found = first_difference(left, right, path + key)
        if found is not None:
            return found
    return None


def _node_text(tree: Tree) -> str:
    if isinstance(tree, Leaf):
        return "a leaf"
    if tree.kind == "None":
        return "None"
    if tree.kind == "dict":
        return f"a dict with keys {list(tree.keys)}"
    return f"a {tree.kind} of {len(tree.children)}"


@dataclass(frozen=True)
class PytreeInputs:
    """A pytree and, optionally, a second one to compare its structure with.

    Attributes:
        tree: The pytree.
        other: A second pytree, or ``None``.
    """

    tree: Tree
    other: Tree | None = None


@dataclass(frozen=True)
class PytreeResult:
    """What ``tree_flatten_with_path`` and ``tree_structure`` give.

    Attributes:
        tree: The pytree, normalised (dict keys sorted).
        treedef: ``str(tree_structure(tree))``.
        paths: ``keystr`` of each leaf's path, in flattening order.
        leaves: Each leaf's type, in the same order.
        num_nodes: ``treedef.num_nodes`` (containers, ``None`` and leaves).
        other_treedef: The second tree's definition, or empty.
        difference: Where the two structures first differ; empty when equal or when there is no second tree.
    """

    tree: str
    treedef: str
    paths: tuple[str, ...]
    leaves: tuple[str, ...]
    num_nodes: int
    other_treedef: str
    difference: str

    @property
    def status(self) -> Status:
        """``warning`` when the two structures differ (jit retraces, scan and tree_map raise), else ``ok``."""
        return "warning" if self.difference else "ok"

    @property
    def headline(self) -> str:
        """Leaf count and tree definition, and the comparison when there is a second tree."""
        count = len(self.leaves)
        text = f"{count} {'leaf' if count == 1 else 'leaves'}, {self.treedef}"
        if self.other_treedef:
            text += (
                f"; the second tree differs {self.difference}"
                if self.difference
                else "; the second tree has the same structure"
            )
        return text

    def rows(self) -> tuple[Row, ...]:
        """The definition, node count, one row per leaf, and the comparison."""
        rows = [
            Row("tree_structure", self.treedef, "containers kept, each leaf written *; dict keys sorted"),
            Row("num_leaves", str(len(self.leaves)), "None is a node with no children, not a leaf"),
            Row("num_nodes", str(self.num_nodes), "containers + None + leaves"),
        ]
        rows += [
            Row(f"leaf {index}", leaf, f"keystr(path) = {path or '(empty: the root)'}")
            for index, (path, leaf) in enumerate(zip(self.paths, self.leaves, strict=True))
        ]
        if self.other_treedef:
            equal = "equal" if not self.difference else f"not equal: {self.difference}"
            rows.append(Row("second tree_structure", self.other_treedef, equal))
        return tuple(rows)


def compute_pytree(inputs: PytreeInputs) -> PytreeResult:
    """Flatten a pytree with paths, and compare its structure with a second one.

    Examples:
        >>> result = compute_pytree(PytreeInputs(parse_tree("{'w': f32[3,2], 'b': None, 'n': (i32[], ~f32[])}")))
        >>> print(result.headline)
        3 leaves, PyTreeDef({'b': None, 'n': (*, *), 'w': *})
        >>> result.paths
        ("['n'][0]", "['n'][1]", "['w']")
        >>> compute_pytree(PytreeInputs(parse_tree("(f32[3],)"), parse_tree("[f32[3]]"))).difference
        'at the root: a tuple of 1 vs a list of 1'
    """
    pairs = list(leaf_paths(inputs.tree))
    other = inputs.other
    difference = "" if other is None else first_difference(inputs.tree, other) or ""
    return PytreeResult(
        tree=format_tree(inputs.tree),
        treedef=treedef_text(inputs.tree),
        paths=tuple(path for path, _ in pairs),
        leaves=tuple(str(leaf) for _, leaf in pairs),
        num_nodes=_node_count(inputs.tree),
        other_treedef="" if other is None else treedef_text(other),
        difference=difference,
    )


def _parse_optional_tree(text: str) -> Tree | None:
    return parse_tree(text) if text.strip() else None


def _format_optional_tree(tree: Tree | None) -> str:
    return "" if tree is None else format_tree(tree)


CALCULATOR = register_calculator(
    Calculator(
        name="pytree",
        title="Pytree calculator",
        summary="The leaves, key paths and PyTreeDef JAX gives a pytree, and where two pytrees' structures differ.",
        explainer="pytrees#flattening",
        inputs=PytreeInputs,
        fields=(
            Field(
                "tree",
                "text",
                "Pytree",
                "A pytree of array types: f32[3] leaves, tuples (a, b), lists [a, b], dicts {'k': a} and None.",
                default="{'w': f32[3,2], 'b': None, 'opt': (i32[], [f32[3,2], f32[2]])}",
                parser=parse_tree,
                formatter=format_tree,
                placeholder="{'w': f32[3,2], 'b': None}",
            ),
            Field(
                "other",
                "text",
                "Second pytree",
                "Optional: another pytree to compare structures with (as jit's cache, scan's carry and tree_map do).",
                default="",
                parser=_parse_optional_tree,
                formatter=_format_optional_tree,
                placeholder="{'w': f32[3,2], 'b': f32[2]}",
            ),
        ),
        compute=compute_pytree,
        examples=(
            {"tree": "{'w': f32[3,2], 'b': None, 'opt': (i32[], [f32[3,2], f32[2]])}"},
            {"tree": "(f32[3], i32[])", "other": "[f32[3], i32[]]"},
            {"tree": "{'a': f32[], 'b': None}", "other": "{'a': f32[], 'b': f32[]}"},
            {"tree": "f32[8,128]"},
        ),
    )
)
