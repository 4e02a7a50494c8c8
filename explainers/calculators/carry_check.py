"""Carry-check calculator: whether JAX accepts a loop's carry (or a ``cond``'s branch outputs), and its message.

``lax.scan``, ``lax.fori_loop`` and ``lax.while_loop`` compile their body once, for one carry type,
so the body must return a carry with the initial carry's pytree structure and, per leaf, its
shape and dtype. JAX compares them with ``typematch``, which ignores weak types. Before it rejects
a leaf, JAX promotes a weakly typed initial leaf (a Python scalar such as ``0`` or ``0.5``) to
``result_type(init, out)`` and traces the body again; the check that then fails shows the promoted
type. ``lax.cond`` compares its two branches' outputs the same way but promotes nothing.

Text syntax (the ``init`` and ``out`` fields): a leaf is a type in JAX's short notation,
``f32[3]``, ``i32[]``, ``bf16[8,128]`` (long names such as ``float32[3]`` work too); a leading
``~`` or the word ``weak`` marks a weakly typed leaf, as a Python scalar gives (``~f32[]``,
``weak i32[]``); containers are tuples ``(a, b)``, lists ``[a, b]``, dicts ``{'m': a, n: b}`` and
``None``. A parenthesised value is a tuple only with a comma, as in Python: ``(f32[3],)``.

Which check runs follows JAX: ``scan`` and a ``fori_loop`` with static bounds (Python ints) are
checked as ``scan body``; ``while_loop`` and a ``fori_loop`` with traced bounds as ``while_loop
body``. ``fori_loop`` wraps the body, so JAX names the carry ``loop_carry[1]`` (static bounds) or
``loop_carry[2]`` (traced bounds) instead of the body's parameter.

Modelled: structure, shapes, dtypes and weak types of 32-bit and smaller dtypes. The body is taken
to return the same output types when JAX traces it again with a promoted carry, which holds when
the output's dtype does not depend on the carry's or follows it (``c + 0.5``). Not modelled:
64-bit dtypes (``jax_enable_x64``), named tuples and custom pytree nodes, and ``shard_map``'s
varying manual axes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.pytree_text import DTYPE, NAME, Container, PytreeTextParser
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.svg import HIT_FILL, MISS_FILL, PADDING_FILL, Picture, label, rect, svg

MAX_TEXT = 20_000
MAX_DEPTH = 32
MAX_LEAVES = 2_000
"""A carry with more leaves than this is not typed by hand; the calculator refuses."""

_UNSUPPORTED = frozenset({"f64", "i64", "i4"})
"""Without ``jax_enable_x64`` JAX has no 64-bit arrays; int4 promotes outside the modelled lattice."""
_WEAK_DTYPES = frozenset({"i32", "f32"})
"""Weak types come from Python ``int`` and ``float``: ``int32`` and ``float32`` in 32-bit mode."""
_SHAPED_ARRAY = "<class 'jax._src.core.ShapedArray'>"
"""How a loop's structure message names a leaf (it compares trees of abstract values)."""
_COND_LEAF = "pytree leaf"
"""How a ``cond`` structure message names a leaf (it compares tree definitions)."""

Primitive = Literal["scan", "fori_loop", "while_loop", "cond"]
Bounds = Literal["static", "traced"]
Verdict = Literal["accepted", "accepted after weak-type promotion", "TypeError"]


@dataclass(frozen=True)
class Leaf:
    """An array leaf of a carry: dtype (short name), shape and weak type.

    Examples:
        >>> leaf = Leaf("bf16", (8, 128), weak=False)
        >>> str(leaf), leaf.jax_str()
        ('bf16[8,128]', 'bfloat16[8,128]')
    """

    dtype: str
    shape: tuple[int, ...]
    weak: bool = False

    def __str__(self) -> str:
        return dtypes.aval(self.dtype, self.shape, self.weak)

    def jax_str(self) -> str:
        """The type as JAX's carry messages write it: long dtype name, no weak marker."""
        return dtypes.aval(self.dtype, self.shape, long=True)


Tree = Leaf | Container


def parse_tree(text: str) -> Tree:
    """Read a carry type such as ``(f32[3], {'m': i32[], 'n': ~f32[]})``.

    Raises:
        ValueError: saying what was expected and where.

    Examples:
        >>> print(parse_tree("(float32[3], {'n': weak f32[], m: i32[]}, None)"))
        (f32[3], {'m': i32[], 'n': ~f32[]}, None)
        >>> print(parse_tree("(f32[3])"))
        f32[3]
        >>> parse_tree("(f32[3], f64[2])")
        Traceback (most recent call last):
        ...
        ValueError: f64 is not modelled: without jax_enable_x64 JAX has no 64-bit arrays at '[2])'
        >>> parse_tree("~bf16[]")
        Traceback (most recent call last):
        ...
        ValueError: only i32 and f32 leaves can be weakly typed (Python int and float give them) at '[]'
    """
    if len(text) > MAX_TEXT:
        raise ValueError(f"the text has {len(text)} characters; the limit is {MAX_TEXT}")
    parser = _TreeParser(text)
    tree = parser.parse_value(0)
    parser.skip()
    if parser.pos != len(text):
        raise parser.error("expected the end of the type after a complete value")
    if _count_leaves(tree) > MAX_LEAVES:
        raise ValueError(f"more than {MAX_LEAVES} leaves; the limit is {MAX_LEAVES}")
    return tree


def format_tree(tree: Tree | str) -> str:
    """A carry type back as the text :func:`parse_tree` reads (text is normalised through it).

    Examples:
        >>> format_tree("{b: float16[2], a: weak int32[]}")
        "{'a': ~i32[], 'b': f16[2]}"
    """
    return str(parse_tree(tree) if isinstance(tree, str) else tree)


_WEAK_WORD = re.compile(r"weak\s+")


class _TreeParser(PytreeTextParser):
    """Recursive descent over one carry type."""

    def parse_value(self, depth: int) -> Tree:
        if depth > MAX_DEPTH:
            raise self.error(f"pytrees nested deeper than {MAX_DEPTH} levels are not supported")
        self.skip()
        rest = self.text[self.pos :]
        if re.match(r"None(?![A-Za-z0-9_])", rest):
            self.pos += 4
            return Container("None")
        if rest[:1] in ("(", "["):
            tuple_or_list = "tuple" if rest[:1] == "(" else "list"
            children, comma = self.parse_items(depth)
            if tuple_or_list == "tuple" and len(children) == 1 and not comma:
                return children[0]  # (x) is x, as in Python
            return Container(tuple_or_list, tuple(children))
        if rest[:1] == "{":
            keys, values = self.parse_dict(depth)
            return Container("dict", values, keys)
        return self.leaf()

    def leaf(self) -> Leaf:
        weak = False
        if self.text.startswith("~", self.pos):
            weak = True
            self.pos += 1
        elif match := _WEAK_WORD.match(self.text, self.pos):
            weak = True
            self.pos = match.end()
        match = DTYPE.match(self.text, self.pos)
        if not match:
            raise self.error(
                "expected a type such as f32[3] or ~f32[], a tuple (...), a list [...], a dict {...} or None"
            )
        try:
            dtype = dtypes.lookup(match.group())
        except ValueError as error:
            raise self.error(str(error)) from None
        self.pos = match.end()
        if dtype.short in _UNSUPPORTED:
            why = "without jax_enable_x64 JAX has no 64-bit arrays" if dtype.bits == 64 else "int4 is not modelled"
            raise self.error(f"{dtype.short} is not modelled: {why}")
        if weak and dtype.short not in _WEAK_DTYPES:
            raise self.error("only i32 and f32 leaves can be weakly typed (Python int and float give them)")
        if not self.text.startswith("[", self.pos):
            raise self.error(
                f"expected '[' and the shape after {match.group()}, e.g. {dtype.short}[3] or {dtype.short}[]"
            )
        self.pos += 1
        return Leaf(dtype.short, self.parse_dims(), weak)


def _count_leaves(tree: Tree) -> int:
    if isinstance(tree, Leaf):
        return 1
    return sum(_count_leaves(child) for child in tree.children)


@dataclass(frozen=True)
class CarryCheckInputs:
    """A loop's initial carry and its body's carry output, or a ``cond``'s two branch outputs.

    Attributes:
        primitive: ``scan``, ``fori_loop``, ``while_loop`` or ``cond``.
        bounds: For ``fori_loop``: ``static`` (Python ints, checked as a ``scan``) or ``traced``
            (checked as a ``while_loop``); ignored otherwise.
        name: The body's first parameter, which JAX's message names the carry after; empty when
            JAX cannot read the body's signature. Ignored for ``fori_loop`` and ``cond``.
        init: The initial carry's type (for ``cond``: ``true_fun``'s output).
        out: The body's carry output type (for ``cond``: ``false_fun``'s output).

    Raises:
        CalculatorInputError: ``name`` when it is not a Python identifier.
    """

    primitive: Primitive
    bounds: Bounds
    name: str
    init: Tree
    out: Tree

    def __post_init__(self) -> None:
        if self.name and not NAME.fullmatch(self.name):
            raise CalculatorInputError("name", f"{self.name[:40]!r} is not a Python parameter name")


@dataclass(frozen=True)
class LeafCheck:
    """One leaf compared: where it is, both types, and what JAX does with it.

    Attributes:
        path: The leaf's path as JAX prints it (``carry[1]['m']``; for ``cond``, ``[1]['m']``).
        init: The initial leaf (``true_fun``'s for ``cond``).
        out: The body's output leaf (``false_fun``'s for ``cond``).
        promoted: The initial leaf after weak-type promotion, or ``None`` when JAX keeps it.
        reason: Empty when the leaf is accepted; else JAX's reason (``the dtypes do not match``).
    """

    path: str
    init: Leaf
    out: Leaf
    promoted: Leaf | None
    reason: str


@dataclass(frozen=True)
class CarryCheckResult:
    """JAX's verdict on a carry (or on two branch outputs) and the message it raises.

    Attributes:
        primitive: The primitive checked.
        check: The name JAX's message uses: ``scan body``, ``while_loop body`` or ``cond``.
        verdict: ``accepted``, ``accepted after weak-type promotion`` or ``TypeError``.
        structure: JAX's structure differences, one sentence each (empty when the structures match).
        leaves: Per leaf comparison when the structures match.
        message: The ``TypeError`` text, empty when accepted. For ``cond`` JAX names where each
            branch is defined (``true_fun is <lambda> at file.py:12``); the calculator cannot
            know that and writes ``true_fun is <true_fun's definition>``.
    """

    primitive: Primitive
    check: str
    verdict: Verdict
    structure: tuple[str, ...]
    leaves: tuple[LeafCheck, ...]
    message: str

    @property
    def status(self) -> Status:
        """``error`` when JAX raises, ``ok`` otherwise."""
        return "error" if self.verdict == "TypeError" else "ok"

    @property
    def headline(self) -> str:
        """The verdict with the first offending leaf's path and both types."""
        if self.structure:
            return f"TypeError: the {self._subject} changes pytree structure: {self.structure[0]}"
        bad = [leaf for leaf in self.leaves if leaf.reason]
        if bad:
            first = bad[0]
            shown = (first.promoted or first.init).jax_str()
            more = f" (and {len(bad) - 1} more leaves)" if len(bad) > 1 else ""
            if self.primitive == "cond":
                where = f"at {first.path}, " if first.path else ""
                return (
                    f"TypeError: {where}true_fun returns {shown} but false_fun returns {first.out.jax_str()}: "
                    f"{first.reason}{more}"
                )
            return (
                f"TypeError: {first.path or 'the carry'} is {shown} in the initial carry but {first.out.jax_str()} "
                f"in the body's output: {first.reason}{more}"
            )
        promoted = [leaf for leaf in self.leaves if leaf.promoted]
        if promoted:
            names = ", ".join(f"{leaf.path} → {leaf.promoted.jax_str()}" for leaf in promoted if leaf.promoted)
            return f"accepted after weak-type promotion of the initial carry: {names}"
        return f"accepted: every {self._subject} leaf keeps its shape and dtype"

    @property
    def _subject(self) -> str:
        return "branch output" if self.primitive == "cond" else "carry"

    def rows(self) -> tuple[Row, ...]:
        """The check, the verdict, then one row per leaf or structure difference, then the message."""
        rows = [Row("check", self.check, _CHECK_FORMULA[self.primitive]), Row("verdict", self.verdict, key=True)]
        for difference in self.structure:
            rows.append(Row("structure", "differs", difference, key=True))
        for leaf in self.leaves:
            value = f"{leaf.init.jax_str()} vs {leaf.out.jax_str()}"
            if leaf.promoted is not None:
                formula = (
                    f"weak {leaf.init.jax_str()} is promoted to result_type(~{leaf.init.dtype}, {leaf.out}) = "
                    f"{dtypes.lookup(leaf.promoted.dtype).name}, then compared: "
                    + (leaf.reason if leaf.reason else "the types match")
                )
            elif leaf.reason:
                formula = leaf.reason
            else:
                formula = "shape and dtype match" + (
                    " (weak types are ignored)" if leaf.init.weak != leaf.out.weak else ""
                )
            rows.append(Row(leaf.path or "(root)", value, formula, key=bool(leaf.reason)))
        if self.message:
            rows.append(Row("JAX raises", "TypeError", self.message, key=True))
        return tuple(rows)


_CHECK_FORMULA: dict[str, str] = {
    "scan": "carry output vs initial carry; weakly typed initial leaves are promoted first",
    "fori_loop": "runs as scan (static bounds) or while_loop (traced bounds); weak initial leaves are promoted first",
    "while_loop": "carry output vs initial carry; weakly typed initial leaves are promoted first",
    "cond": "false_fun's output vs true_fun's output; nothing is promoted",
}


def _promoted_dtype(init: Leaf, out: Leaf) -> str | None:
    """``result_type`` of a weakly typed initial leaf and the body's output leaf (JAX's lattice, 32-bit).

    ``None`` when JAX has no implicit promotion between them (a weak float and ``int4``).

    Examples:
        >>> _promoted_dtype(Leaf("i32", (), True), Leaf("f16", (3,)))
        'f16'
        >>> _promoted_dtype(Leaf("f32", (), True), Leaf("i8", ()))
        'f32'
        >>> _promoted_dtype(Leaf("i32", (), True), Leaf("bool", ()))
        'i32'
    """
    try:
        dtype, _ = dtypes.result_type((dtypes.long_name(init.dtype), True), (dtypes.long_name(out.dtype), out.weak))
    except ValueError:
        return None
    return dtypes.short_name(dtype)


def _mismatch(first: Leaf, second: Leaf) -> str:
    """JAX's ``aval_mismatch_extra`` without its leading ``, so``; empty when ``typematch`` holds."""
    reasons = []
    if first.dtype != second.dtype:
        reasons.append("the dtypes do not match")
    if first.shape != second.shape:
        reasons.append("the shapes do not match")
    if len(reasons) == 2:
        return "the dtypes do not match, and the shapes do not match"
    return reasons[0] if reasons else ""


def _key_text(node: Container, index: int) -> str:
    return f"[{node.keys[index]!r}]" if node.kind == "dict" else f"[{index}]"


def _structure_errors(path: str, first: Tree, second: Tree, leaf_name: str) -> list[tuple[str, str, str, str]]:
    """JAX's ``tree_util.equality_errors``: (path, first thing, second thing, explanation) per difference."""
    if isinstance(first, Leaf) and isinstance(second, Leaf):
        return []
    names = [
        leaf_name if isinstance(t, Leaf) else f"<class '{'NoneType' if t.kind == 'None' else t.kind}'>"
        for t in (first, second)
    ]
    if names[0] != names[1]:
        return [(path, names[0], names[1], "their Python types differ")]
    assert isinstance(first, Container) and isinstance(second, Container)
    if first.kind in ("tuple", "list") and len(first.children) != len(second.children):
        return [
            (
                path,
                f"{first.kind} of length {len(first.children)}",
                f"{second.kind} of length {len(second.children)}",
                "the lengths do not match",
            )
        ]
    if len(first.children) != len(second.children):
        difference = " ".join(repr(key) for key in sorted(set(first.keys) ^ set(second.keys)))
        return [
            (
                path,
                f"{names[0]} with {_children(len(first.children))}",
                f"{names[1]} with {_children(len(second.children))}",
                "the numbers of children do not match"
                + (f", with the symmetric difference of key sets: {{{difference}}}" if difference else ""),
            )
        ]
    if first.keys != second.keys:
        return [
            (
                path,
                f"{names[0]} with pytree metadata {first.keys!r}",
                f"{names[1]} with pytree metadata {second.keys!r}",
                "the pytree node metadata does not match",
            )
        ]
    found: list[tuple[str, str, str, str]] = []
    for index, (left, right) in enumerate(zip(first.children, second.children, strict=True)):
        found += _structure_errors(path + _key_text(first, index), left, right, leaf_name)
    return found


def _children(count: int) -> str:
    # JAX adds "ren" only above one: "0 child", "1 child", "2 children".
    return f"{count} child{'ren' if count > 1 else ''}"


def _leaf_pairs(path: str, first: Tree, second: Tree) -> list[tuple[str, Leaf, Leaf]]:
    """Leaves of two trees of equal structure, with their paths, in JAX's flattening order."""
    if isinstance(first, Leaf) and isinstance(second, Leaf):
        return [(path, first, second)]
    assert isinstance(first, Container) and isinstance(second, Container)
    pairs: list[tuple[str, Leaf, Leaf]] = []
    for index, (left, right) in enumerate(zip(first.children, second.children, strict=True)):
        pairs += _leaf_pairs(path + _key_text(first, index), left, right)
    return pairs


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def _loop_list(diffs: list[str]) -> str:
    """JAX's loop-message list: one sentence, or bullets each followed by a blank line."""
    if len(diffs) == 1:
        return f"{_capitalize(diffs[0])}.\n"
    return "\n".join(f"  * {d};\n" for d in diffs[:-1]) + f"  * {diffs[-1]}.\n"


_COND_HEADER = "true_fun is <true_fun's definition>\nfalse_fun is <false_fun's definition>\n\n"


def _check_cond(inputs: CarryCheckInputs) -> CarryCheckResult:
    """``lax.cond``: the two branches' outputs must match exactly, up to weak types."""
    structure = _structure_errors("", inputs.init, inputs.out, _COND_LEAF)
    at = lambda path: f" at path {path}" if path else ""  # noqa: E731
    if structure:
        diffs = [
            f"true_fun output{at(p)} is a {a} but false_fun output{at(p)} is a {b}, so {why}"
            for p, a, b, why in structure
        ]
        listing = (
            f"{diffs[0]}.\n"
            if len(diffs) == 1
            else "\n".join(f"  * {d};\n" for d in diffs[:-1]) + f"  * {diffs[-1]}.\n"
        )
        message = (
            "cond branch outputs must have the same pytree structure, but they differ:\n\n"
            f"{_COND_HEADER}{listing}\nRevise true_fun and/or false_fun so that they have the same pytree structure."
        )
        return CarryCheckResult("cond", "cond", "TypeError", tuple(diffs), (), message)
    leaves = tuple(
        LeafCheck(path, first, second, None, _mismatch(first, second))
        for path, first, second in _leaf_pairs("", inputs.init, inputs.out)
    )
    bad = [leaf for leaf in leaves if leaf.reason]
    if not bad:
        return CarryCheckResult("cond", "cond", "accepted", (), leaves, "")
    diffs = [
        f"the output of true_fun{at(leaf.path)} has type {leaf.init.jax_str()} but the corresponding output of "
        f"false_fun has type {leaf.out.jax_str()}, so {leaf.reason}"
        for leaf in bad
    ]
    if len(diffs) == 1:
        listing = f"{_capitalize(diffs[0])}.\n"
    else:
        listing = "\n".join(f"  * {d};" for d in diffs[:-1]) + f"\n  * {diffs[-1]}.\n"
    message = (
        "cond branches must have equal output types but they differ.\n\n"
        f"{_COND_HEADER}{listing}\nRevise true_fun and/or false_fun so that all output types match."
    )
    return CarryCheckResult("cond", "cond", "TypeError", (), leaves, message)


def compute_carry_check(inputs: CarryCheckInputs) -> CarryCheckResult:
    """Replay JAX's carry check: structure first, then weak-type promotion, then shapes and dtypes.

    Args:
        inputs: The primitive and both types.

    Returns:
        The verdict, per-leaf comparisons and JAX's message.

    Examples:
        >>> def check(primitive, init, out, bounds="static"):
        ...     return compute_carry_check(CarryCheckInputs(primitive, bounds, "c", parse_tree(init), parse_tree(out)))
        >>> message = check("scan", "(f32[3], {'m': i32[]})", "(f16[3], {'m': i32[]})").message
        >>> print(message.splitlines()[0])
        scan body function carry input and carry output must have equal types, but they differ:
        >>> print(message.splitlines()[2])  # doctest: +NORMALIZE_WHITESPACE
        The input carry component c[0] has type float32[3] but the corresponding output carry component has
        type float16[3], so the dtypes do not match.
        >>> check("fori_loop", "~i32[]", "~f32[]").headline
        'accepted after weak-type promotion of the initial carry: loop_carry[1] → float32[]'
        >>> print(check("while_loop", "i32[]", "~f32[]").headline)
        TypeError: c is int32[] in the initial carry but float32[] in the body's output: the dtypes do not match
        >>> print(check("scan", "[f32[3], None]", "(f32[3], None)").structure[0])  # doctest: +NORMALIZE_WHITESPACE
        the input carry c is a <class 'list'> but the corresponding component of the carry output is a
        <class 'tuple'>, so their Python types differ
    """
    if inputs.primitive == "cond":
        return _check_cond(inputs)
    as_scan = inputs.primitive == "scan" or (inputs.primitive == "fori_loop" and inputs.bounds == "static")
    check = "scan body" if as_scan else "while_loop body"
    if inputs.primitive == "fori_loop":
        name, prefix = "loop_carry", "[1]" if inputs.bounds == "static" else "[2]"
    else:
        name, prefix = inputs.name, ""

    def component(path: str) -> str:
        if name:
            return f"the input carry component {name}{path}" if path else f"the input carry {name}"
        return f"the input carry at path {path}" if path else "the input carry"

    structure = _structure_errors(prefix, inputs.init, inputs.out, _SHAPED_ARRAY)
    if structure:
        diffs = [
            f"{component(p)} is a {a} but the corresponding component of the carry output is a {b}, so {why}"
            for p, a, b, why in structure
        ]
        message = (
            f"{check} function carry input and carry output must have the same pytree structure, but they differ:\n\n"
            f"{_loop_list(diffs)}\n"
            "Revise the function so that the carry output has the same pytree structure as the carry input."
        )
        return CarryCheckResult(inputs.primitive, check, "TypeError", tuple(diffs), (), message)
    leaves: list[LeafCheck] = []
    diffs: list[str] = []
    for path, init, out in _leaf_pairs(prefix, inputs.init, inputs.out):
        promoted_dtype = _promoted_dtype(init, out) if init.weak and _mismatch(init, out) else None
        promoted = Leaf(promoted_dtype, init.shape) if promoted_dtype is not None else None
        leaf = LeafCheck(name + path, init, out, promoted, _mismatch(promoted or init, out))
        leaves.append(leaf)
        if leaf.reason:
            diffs.append(
                f"{component(path)} has type {(promoted or init).jax_str()} but the corresponding output carry "
                f"component has type {out.jax_str()}, so {leaf.reason}"
            )
    if diffs:
        message = (
            f"{check} function carry input and carry output must have equal types, but they differ:\n\n"
            f"{_loop_list(diffs)}\n"
            "Revise the function so that all output types match the corresponding input types."
        )
        return CarryCheckResult(inputs.primitive, check, "TypeError", (), tuple(leaves), message)
    verdict: Verdict = "accepted after weak-type promotion" if any(leaf.promoted for leaf in leaves) else "accepted"
    return CarryCheckResult(inputs.primitive, check, verdict, (), tuple(leaves), "")


def draw_carry(result: CarryCheckResult) -> Picture:
    """The two carries side by side, leaf by leaf: matching leaves green, promoted ones amber, differing ones red.

    When the structures differ there are no leaves to pair, and each structure difference is a red row.

    Examples:
        >>> init, out = parse_tree("(f32[3], ~i32[])"), parse_tree("(f16[3], f32[])")
        >>> inputs = CarryCheckInputs("scan", "static", "c", init, out)
        >>> print(draw_carry(compute_carry_check(inputs)).text)
        initial carry against body output: c[0] f32[3] vs f16[3] differs (the dtypes do not match); \
c[1] ~i32[] vs f32[] is promoted to f32[] and matches.
    """
    left, right = ("true_fun", "false_fun") if result.primitive == "cond" else ("initial carry", "body output")
    row, top = 26, 22
    columns, width = (4, 112, 218), 324
    body = [
        label(columns[0], 10, "leaf", anchor="start", size=11, weight="600"),
        label(columns[1], 10, left, anchor="start", size=11, weight="600"),
        label(columns[2], 10, right, anchor="start", size=11, weight="600"),
    ]
    described = []
    if result.structure:
        for index, difference in enumerate(result.structure):
            y = top + index * row
            shown = difference if len(difference) <= 70 else difference[:69] + "…"
            body += [
                rect(2, y, 466, row - 4, PADDING_FILL),
                label(8, y + (row - 4) / 2, shown, anchor="start", size=10),
            ]
            described.append(f"the structures differ: {difference}")
        height = top + len(result.structure) * row
    else:
        for index, leaf in enumerate(result.leaves):
            y = top + index * row
            fill = PADDING_FILL if leaf.reason else MISS_FILL if leaf.promoted else HIT_FILL
            body.append(rect(2, y, width - 4, row - 4, fill))
            body.append(label(columns[0] + 4, y + (row - 4) / 2, leaf.path or "(root)", anchor="start", size=11))
            body.append(label(columns[1], y + (row - 4) / 2, str(leaf.init), anchor="start", size=11))
            body.append(label(columns[2], y + (row - 4) / 2, str(leaf.out), anchor="start", size=11))
            if leaf.reason:
                verdict = f"differs ({leaf.reason})"
            elif leaf.promoted:
                verdict = f"is promoted to {leaf.promoted} and matches"
            else:
                verdict = "matches"
            described.append(f"{leaf.path or '(root)'} {leaf.init} vs {leaf.out} {verdict}")
        height = top + len(result.leaves) * row
    text = f"{left} against {right}: " + "; ".join(described) + "."
    return svg(width, max(height, top + row), body, text)


CALCULATOR = register_calculator(
    Calculator(
        name="carry-check",
        title="Loop carry and branch type check",
        summary="Whether JAX accepts a scan/fori_loop/while_loop carry or cond's branch outputs, and the TypeError it "
        "raises otherwise.",
        explainer="control-flow#loop-carry-dtype-changes",
        inputs=CarryCheckInputs,
        fields=(
            Field(
                "primitive",
                "choice",
                "Primitive",
                "The JAX function: lax.scan, lax.fori_loop, lax.while_loop or lax.cond.",
                default="scan",
                choices=("scan", "fori_loop", "while_loop", "cond"),
            ),
            Field(
                "bounds",
                "choice",
                "fori_loop bounds",
                "For fori_loop: static (Python ints; JAX runs a scan) or traced (JAX runs a while_loop).",
                default="static",
                choices=("static", "traced"),
            ),
            Field(
                "name",
                "text",
                "Carry parameter",
                "The body's first parameter, which JAX names the carry after (empty: JAX cannot read the signature).",
                default="carry",
                placeholder="carry",
            ),
            Field(
                "init",
                "text",
                "Initial carry",
                "The initial carry's type, e.g. (f32[3], {'m': i32[]}); ~ marks a weak type (a Python scalar). "
                "For cond: true_fun's output.",
                default="(f32[3], {'m': i32[], 'n': ~f32[]})",
                parser=parse_tree,
                formatter=format_tree,
                placeholder="(f32[3], {'m': i32[]})",
            ),
            Field(
                "out",
                "text",
                "Body's carry output",
                "The carry type the body returns, in the same notation. For cond: false_fun's output.",
                default="(f16[3], {'m': i32[], 'n': f32[]})",
                parser=parse_tree,
                formatter=format_tree,
                placeholder="(f16[3], {'m': i32[]})",
            ),
        ),
        compute=compute_carry_check,
        picture=draw_carry,
        examples=(
            {
                "primitive": "scan",
                "init": "(f32[3], {'m': i32[], 'n': ~f32[]})",
                "out": "(f16[3], {'m': i32[], 'n': f32[]})",
            },
            {"primitive": "fori_loop", "init": "~i32[]", "out": "~f32[]"},
            {"primitive": "while_loop", "name": "state", "init": "f32[1]", "out": "f32[2]"},
            {"primitive": "scan", "name": "c", "init": "(f32[3], i32[])", "out": "[f32[3], i32[]]"},
            {"primitive": "cond", "init": "(~f32[], f32[2])", "out": "(f16[], f32[2])"},
        ),
    )
)
