"""vmap-axes calculator: what ``jax.vmap(f, in_axes, out_axes)`` does with arguments of given types.

``vmap`` maps over one axis of each argument whose ``in_axes`` entry is an integer and passes the
arguments with ``None`` whole to every call. Every mapped axis must have the same size (and equal
``axis_size`` when it is given); that size is the batch. Each call of ``f`` sees its arguments
with the mapped axis removed, and the batch axis is put into ``f``'s output at ``out_axes``
(negative values count from the end of the batched output). The errors and their text follow
``jax._src.api`` in JAX 0.10.2: a tuple of ``in_axes`` whose length differs from the number of
positional arguments, an axis past an argument's rank, mapped axes of different sizes (grouped by
size, most common first), no mapped axis and no ``axis_size``, and ``out_axes`` past the output's
rank.

Text syntax: ``args`` is ``name: type`` per positional argument, separated by ``;``
(``x: f32[8,3]; y: f32[3]``); ``in-axes`` is an integer, ``None`` or a tuple such as
``(0, None)``; ``out`` is the type one call of ``f`` returns (empty: not asked).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from xlalens.explainers.calculators.carry_check import Leaf, parse_tree
from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator

MAX_ARGS = 64
_NAME = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.+?)\s*$", re.S)
_AXIS = re.compile(r"^-?[0-9]{1,4}$")

Axis = int | None


@dataclass(frozen=True)
class Argument:
    """One positional argument: its parameter name and its type."""

    name: str
    leaf: Leaf

    def __str__(self) -> str:
        return f"{self.name}: {self.leaf}"


def parse_arguments(text: str) -> tuple[Argument, ...]:
    """Read ``x: f32[8,3]; y: f32[3]`` (a missing name becomes ``args[i]``, as JAX writes it).

    Examples:
        >>> [str(argument) for argument in parse_arguments("x: f32[8,3]; i32[]")]
        ['x: f32[8,3]', 'args[1]: i32[]']
    """
    parts = [part for part in text.split(";") if part.strip()]
    if not parts:
        raise ValueError("give at least one argument, e.g. x: f32[8,3]")
    if len(parts) > MAX_ARGS:
        raise ValueError(f"{len(parts)} arguments; the limit is {MAX_ARGS}")
    arguments = []
    for index, part in enumerate(parts):
        match = _NAME.match(part)
        name, type_text = (match.group(1), match.group(2)) if match else (f"args[{index}]", part.strip())
        leaf = parse_tree(type_text)
        if not isinstance(leaf, Leaf):
            raise ValueError(f"argument {index + 1} ({type_text!r}) must be one array type such as f32[8,3]")
        if leaf.weak:
            raise ValueError(f"argument {index + 1}: write the array's type without ~ (vmap maps arrays)")
        arguments.append(Argument(name, leaf))
    return tuple(arguments)


def format_arguments(arguments: tuple[Argument, ...]) -> str:
    """Arguments back as text."""
    return "; ".join(str(argument) for argument in arguments)


def parse_in_axes(text: str) -> Axis | tuple[Axis, ...]:
    """Read ``0``, ``None``, ``(0, None)`` or ``0, None`` (a tuple).

    Examples:
        >>> parse_in_axes("(0, None)"), parse_in_axes("1"), parse_in_axes("None"), parse_in_axes("(0,)")
        ((0, None), 1, None, (0,))
    """
    stripped = text.strip()
    bracketed = stripped[:1] in "([" and stripped[-1:] in ")]"
    inner = stripped[1:-1] if bracketed else stripped
    parts = [part.strip() for part in inner.split(",")]
    if parts and parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if not bracketed and len(parts) == 1:
        return _axis(parts[0])
    if len(parts) > MAX_ARGS:
        raise ValueError(f"{len(parts)} entries; the limit is {MAX_ARGS}")
    if parts == [""]:
        return ()
    return tuple(_axis(part) for part in parts)


def _axis(text: str) -> Axis:
    if text == "None":
        return None
    if not _AXIS.match(text):
        raise ValueError(f"expected an integer axis or None; got {text[:20]!r}")
    return int(text)


def format_in_axes(in_axes: Axis | tuple[Axis, ...]) -> str:
    """``in_axes`` back as Python writes it."""
    if isinstance(in_axes, tuple):
        inner = ", ".join(str(axis) for axis in in_axes)
        return f"({inner},)" if len(in_axes) == 1 else f"({inner})"
    return str(in_axes)


def _parse_out(text: str) -> Leaf | None:
    if not text.strip():
        return None
    leaf = parse_tree(text)
    if not isinstance(leaf, Leaf):
        raise ValueError("the output must be one array type such as f32[3]")
    return leaf


@dataclass(frozen=True)
class VmapAxesInputs:
    """The arguments, ``in_axes``, ``axis_size``, one call's output type and ``out_axes``."""

    args: tuple[Argument, ...]
    in_axes: Axis | tuple[Axis, ...] = 0
    axis_size: int | None = None
    out: Leaf | None = None
    out_axes: int = 0

    def __post_init__(self) -> None:
        if self.axis_size is not None and self.axis_size < 0:
            raise CalculatorInputError("axis-size", f"{self.axis_size} is below 0")


@dataclass(frozen=True)
class VmapAxesResult:
    """What vmap does: the batch size, each call's argument types and the batched output, or JAX's error.

    Attributes:
        axes: The ``in_axes`` entry of each argument (``None`` for an unmapped one), when they match up.
        batch: The batch size, or ``None`` on error.
        per_call: Each argument's type as one call of ``f`` sees it.
        out: One call's output type, when given.
        batched_out: The output of the vmapped function, when ``out`` is given.
        error: JAX's ``ValueError`` text, empty when vmap runs.
    """

    args: tuple[str, ...]
    axes: tuple[Axis, ...]
    batch: int | None
    per_call: tuple[str, ...]
    out: str
    batched_out: str
    error: str

    @property
    def status(self) -> Status:
        """``error`` when JAX raises, else ``ok``."""
        return "error" if self.error else "ok"

    @property
    def headline(self) -> str:
        """The batch and the shapes, or the first line of JAX's error."""
        if self.error:
            return f"ValueError: {self.error.splitlines()[0]}"
        calls = ", ".join(self.per_call)
        text = f"batch of {self.batch}: each call of f gets ({calls})"
        if self.batched_out:
            text += f"; vmap returns {self.batched_out}"
        return text

    def rows(self) -> tuple[Row, ...]:
        """Per argument: its axis and what one call sees; then the output; then JAX's message."""
        rows = []
        for index, arg in enumerate(self.args):
            axis = self.axes[index] if index < len(self.axes) else None
            seen = self.per_call[index] if index < len(self.per_call) else ""
            formula = "passed whole to every call" if axis is None else f"axis {axis} removed"
            rows.append(Row(arg, seen or "—", formula if seen else f"in_axes entry {axis}"))
        if self.batch is not None:
            rows.append(Row("batch size", str(self.batch), "the size of every mapped axis"))
        if self.out:
            formula = "batch axis inserted at out_axes" if self.batched_out else ""
            rows.append(Row("one call returns", self.out, ""))
            if self.batched_out:
                rows.append(Row("vmap returns", self.batched_out, formula))
        if self.error:
            rows.append(Row("JAX raises", "ValueError", self.error))
        return tuple(rows)


def compute_vmap_axes(inputs: VmapAxesInputs) -> VmapAxesResult:
    """Apply vmap's rules to the argument types.

    Examples:
        >>> run = lambda args, axes, out="", out_axes=0, size=None: compute_vmap_axes(
        ...     VmapAxesInputs(parse_arguments(args), parse_in_axes(axes), size, _parse_out(out), out_axes))
        >>> print(run("x: f32[8,3]; y: f32[3]", "(0, None)", "f32[]").headline)
        batch of 8: each call of f gets (f32[3], f32[3]); vmap returns f32[8]
        >>> print(run("x: f32[8,3,5]", "0", "f32[3,5]", -1).batched_out)
        f32[3,5,8]
        >>> print(run("x: f32[8,3]; y: f32[3]", "(0, None, 0)").error)
        vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional arguments \
passed to the function, but got len(in_axes)=3, len(args)=2
        >>> print(run("x: f32[8,3]; y: f32[4]", "0").error)
        vmap got inconsistent sizes for array axes to be mapped:
          * one axis had size 8: axis 0 of argument x of type float32[8,3];
          * one axis had size 4: axis 0 of argument y of type float32[4]
    """
    names = tuple(str(argument) for argument in inputs.args)
    in_axes = inputs.in_axes
    count = len(inputs.args)
    if isinstance(in_axes, tuple) and len(in_axes) != count:
        error = (
            "vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional arguments "
            f"passed to the function, but got len(in_axes)={len(in_axes)}, len(args)={count}"
        )
        return VmapAxesResult(names, (), None, (), "", "", error)
    axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * count
    sizes: list[int | None] = []
    for argument, axis in zip(inputs.args, axes, strict=True):
        shape = argument.leaf.shape
        if axis is None:
            sizes.append(None)
            continue
        if not -len(shape) <= axis < len(shape):
            minimum = axis + 1 if axis >= 0 else -axis
            error = (
                f"vmap was requested to map its argument along axis {axis}, which implies that its rank should be "
                f"at least {minimum}, but is only {len(shape)} (its shape is {_python_shape(shape)})"
            )
            return VmapAxesResult(names, axes, None, (), "", "", error)
        sizes.append(shape[axis])
    error = _size_error(inputs, axes, sizes)
    if error:
        return VmapAxesResult(names, axes, None, (), "", "", error)
    batch = next((size for size in sizes if size is not None), inputs.axis_size)
    assert batch is not None
    per_call = tuple(
        str(argument.leaf if axis is None else _drop(argument.leaf, axis))
        for argument, axis in zip(inputs.args, axes, strict=True)
    )
    if inputs.out is None:
        return VmapAxesResult(names, axes, batch, per_call, "", "", "")
    rank = len(inputs.out.shape) + 1
    if not -rank <= inputs.out_axes < rank:
        error = f"axis {inputs.out_axes} is out of bounds for array of dimension {rank}"
        return VmapAxesResult(names, axes, batch, per_call, str(inputs.out), "", error)
    position = inputs.out_axes % rank
    shape = (*inputs.out.shape[:position], batch, *inputs.out.shape[position:])
    batched = Leaf(inputs.out.dtype, shape)
    return VmapAxesResult(names, axes, batch, per_call, str(inputs.out), str(batched), "")


def _python_shape(shape: tuple[int, ...]) -> str:
    return f"({shape[0]},)" if len(shape) == 1 else f"({', '.join(map(str, shape))})"


def _drop(leaf: Leaf, axis: int) -> Leaf:
    position = axis % len(leaf.shape)
    return Leaf(leaf.dtype, leaf.shape[:position] + leaf.shape[position + 1 :])


def _size_error(inputs: VmapAxesInputs, axes: tuple[Axis, ...], sizes: list[int | None]) -> str:
    """JAX's message when the mapped sizes (and ``axis_size``) disagree or nothing is mapped; else empty."""
    mapped = [size for size in sizes if size is not None]
    distinct = set(mapped) | ({inputs.axis_size} if inputs.axis_size is not None else set())
    if len(distinct) == 1:
        return ""
    if not distinct:
        return "vmap must have at least one non-None value in in_axes or axis_size must be specified"
    lines = ["vmap got inconsistent sizes for array axes to be mapped:"]
    if inputs.axis_size is not None:
        lines.append(f"  * the `axis_size` argument was {inputs.axis_size};")
    for rank, (size, count) in enumerate(Counter(mapped).most_common()):
        index = sizes.index(size)
        argument = inputs.args[index]
        name = argument.name if argument.name.startswith("args[") else f"argument {argument.name}"
        where = f"axis {axes[index]} of {name} of type {argument.leaf.jax_str()}"
        if count == 1:
            lines.append(f"  * one axis had size {size}: {where};")
        else:
            lines.append(f"  * {'most' if rank == 0 else 'some'} axes ({count} of them) had size {size}, e.g. {where};")
    return "\n".join(lines)[:-1]


CALCULATOR = register_calculator(
    Calculator(
        name="vmap-axes",
        title="vmap in_axes calculator",
        summary="The batch size, what each call of f sees and the shape vmap returns for given in_axes and "
        "out_axes, or the ValueError JAX raises.",
        explainer="vmap#mapped-axes",
        inputs=VmapAxesInputs,
        fields=(
            Field(
                "args",
                "text",
                "Arguments",
                "Each positional argument as name: type, separated by ; (e.g. x: f32[8,3]; y: f32[3]).",
                default="x: f32[8,3]; y: f32[3]",
                parser=parse_arguments,
                formatter=format_arguments,
                placeholder="x: f32[8,3]; y: f32[3]",
            ),
            Field(
                "in-axes",
                "text",
                "in_axes",
                "An integer, None, or a tuple with one entry per positional argument, e.g. (0, None).",
                default="(0, None)",
                parser=parse_in_axes,
                formatter=format_in_axes,
                placeholder="(0, None)",
            ),
            Field(
                "axis-size",
                "int",
                "axis_size",
                "Optional: the batch size, required when every in_axes entry is None.",
                default="",
                optional=True,
                minimum=0,
            ),
            Field(
                "out",
                "text",
                "One call returns",
                "Optional: the type one call of f returns, e.g. f32[] or f32[3].",
                default="f32[]",
                parser=_parse_out,
                formatter=lambda leaf: "" if leaf is None else str(leaf),
                placeholder="f32[]",
            ),
            Field("out-axes", "int", "out_axes", "Where the batch axis goes in the output.", default="0"),
        ),
        compute=compute_vmap_axes,
        examples=(
            {"args": "x: f32[8,3]; y: f32[3]", "in-axes": "(0, None)", "out": "f32[]"},
            {"args": "x: f32[8,3,5]", "in-axes": "0", "out": "f32[3,5]", "out-axes": "-1"},
            {"args": "x: f32[8,3]; y: f32[3]", "in-axes": "(0, None, 0)"},
            {"args": "x: f32[8,3]; y: f32[8]; z: f32[4]", "in-axes": "0"},
            {"args": "x: f32[3,8]; y: f32[8]", "in-axes": "(1, 0)", "out": "f32[3]", "out-axes": "1"},
        ),
    )
)
