"""Transform-stack calculator: the shapes a stack of JAX transforms gives a per-example function.

The function is ``f(w, x)``: parameters ``w`` and one example ``x``, returning an output of a given
shape (a scalar loss by default). A stack such as ``vmap, grad`` is read as written,
``vmap(grad(f))``, and applied from the inside out, each transform changing what the function takes
and returns:

* ``grad`` differentiates with respect to ``w`` (``argnums=0``): the same arguments, and an output
  with ``w``'s shape. The output it differentiates must be a scalar, else JAX raises
  ``TypeError: Gradient only defined for scalar-output functions. Output had shape: (8,).``;
* ``jacfwd`` and ``jacrev`` give the Jacobian with respect to ``w``: the output's shape followed by
  ``w``'s, for any output;
* ``vmap`` maps over the axis ``in_axes`` names of each argument (``(None, 0)``: ``w`` whole,
  ``x`` over axis 0): the mapped arguments gain that axis, of size ``batch``, and the output gains
  it in front. Its shape rules and error texts are the vmap-axes calculator's;
* ``mean`` and ``sum`` reduce the output to a scalar (``lambda *a: g(*a).mean()``): what ``grad`` of a
  batched loss needs;
* ``jit`` compiles the function as it is: shapes and errors are unchanged.

Text syntax: ``stack`` lists the transforms outermost first, separated by commas or written as
nested calls (``jit(vmap(grad(f)))``); the shapes are comma-separated sizes, empty for a scalar.
The shapes and errors are checked against JAX 0.10.2 in tests/explainers/calculators/test_transform_stack.py.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from xlalens.explainers.calculators.carry_check import Leaf
from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.limits import MAX_DIM, MAX_RANK
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.svg import COLOURS, PADDING_FILL, Picture, label, rect, svg
from xlalens.explainers.calculators.units import format_count
from xlalens.explainers.calculators.vmap_axes import (
    Argument,
    Axis,
    VmapAxesInputs,
    compute_vmap_axes,
    format_in_axes,
    parse_in_axes,
)

TRANSFORMS = ("jit", "grad", "vmap", "jacfwd", "jacrev", "mean", "sum")
MAX_STACK = 12
DTYPE = "f32"

Shape = tuple[int, ...]


def parse_stack(text: str) -> tuple[str, ...]:
    """Read ``vmap, grad`` or ``jax.jit(jax.vmap(jax.grad(f)))``, outermost first.

    Examples:
        >>> parse_stack("jax.jit(jax.vmap(jax.grad(f)))")
        ('jit', 'vmap', 'grad')
        >>> parse_stack("vmap grad"), parse_stack("f")
        (('vmap', 'grad'), ())
    """
    words = [word for word in re.split(r"[\s,()]+", text) if word]
    if words and words[-1] == "f":
        words.pop()
    names = [word.removeprefix("jax.") for word in words]
    if len(names) > MAX_STACK:
        raise ValueError(f"{len(names)} transforms; the limit is {MAX_STACK}")
    for name in names:
        if name not in TRANSFORMS:
            raise ValueError(f"{name[:20]!r} is not one of {', '.join(TRANSFORMS)}")
    return tuple(names)


def format_stack(stack: tuple[str, ...]) -> str:
    """The stack back as text, outermost first."""
    return ", ".join(stack)


def parse_shape(text: str) -> Shape:
    """Read ``3,4`` (empty: a scalar).

    Examples:
        >>> parse_shape("3, 4"), parse_shape("")
        ((3, 4), ())
    """
    parts = [part.strip() for part in text.strip().strip("()[]").split(",")]
    if parts and parts[-1] == "":
        parts.pop()
    if len(parts) > MAX_RANK:
        raise ValueError(f"rank {len(parts)} is above the supported {MAX_RANK}")
    shape = []
    for part in parts:
        if not re.fullmatch(r"[0-9]{1,19}", part):
            raise ValueError(f"{part[:20]!r} is not a size; write a shape as 3,4 (empty for a scalar)")
        shape.append(int(part))
    if math.prod(shape) >= MAX_DIM:
        raise ValueError("too many elements")
    return tuple(shape)


def format_shape(shape: Shape) -> str:
    """A shape back as text (``3,4``; empty for a scalar)."""
    return ",".join(str(size) for size in shape)


@dataclass(frozen=True)
class TransformStackInputs:
    """The stack (outermost first), the shapes of ``w``, one ``x`` and one output, the batch, ``in_axes``.

    Raises:
        CalculatorInputError: naming ``batch`` below 1.
    """

    stack: tuple[str, ...] = ("vmap", "grad")
    w: Shape = (3,)
    x: Shape = (3,)
    out: Shape = ()
    batch: int = 8
    in_axes: Axis | tuple[Axis, ...] = (None, 0)

    def __post_init__(self) -> None:
        if self.batch < 1 or self.batch >= MAX_DIM:
            raise CalculatorInputError("batch", f"{self.batch} is not a batch size of at least 1")


@dataclass(frozen=True)
class Level:
    """The function after one transform (or ``f`` itself).

    Attributes:
        name: ``f`` or the transform.
        note: What the transform did, e.g. ``in_axes (None, 0): x mapped over axis 0``.
        args: The arguments this function takes, as types (``w: f32[3]``).
        out: What it returns (``f32[8,3]``), or the exception name when it raises.
        axes: What each output axis is (``batch``, ``w``, ``out``), when it returns.
        error: The exception's message when calling this function raises, else empty.
    """

    name: str
    note: str
    args: tuple[str, ...]
    out: str
    axes: tuple[str, ...]
    error: str


@dataclass(frozen=True)
class TransformStackResult:
    """The function after each transform, inside out; the call and its result or JAX's error.

    Attributes:
        expression: The stack as code, ``vmap(grad(f))``.
        levels: ``f`` and then the function after each transform, innermost first.
        call: The arguments the whole stack is called with.
        shape: The result's shape, or ``None`` when it raises.
        axes: What each axis of the result is.
        error_type: ``TypeError`` or ``ValueError`` when the call raises, else empty.
        error: JAX's message.
        reading: What the numbers are, in words.
    """

    expression: str
    levels: tuple[Level, ...]
    call: tuple[str, ...]
    shape: tuple[int, ...] | None
    axes: tuple[str, ...]
    error_type: str
    error: str
    reading: str

    @property
    def status(self) -> Status:
        """``error`` when JAX raises, else ``ok``."""
        return "error" if self.error else "ok"

    @property
    def headline(self) -> str:
        """The result's type and what it holds, or JAX's error."""
        call = f"{self.expression}({', '.join(self.call)})"
        if self.error:
            return f"{call} raises {self.error_type}: {self.error.splitlines()[0]}"
        return f"{call} returns {_type(self.shape or ())}: {self.reading}"

    def rows(self) -> tuple[Row, ...]:
        """One row per level, inside out, then the result."""
        rows = []
        for level in self.levels:
            signature = f"({', '.join(level.args)}) → {level.out}"
            rows.append(Row(level.name, signature, level.note or level.error))
        if self.shape is not None:
            rows.append(Row("result", _type(self.shape), self.reading, key=True))
            described = ", ".join(f"{axis} {size}" for axis, size in zip(self.axes, self.shape, strict=True))
            rows.append(Row("axes", described or "none (a scalar)", "", key=True))
            rows.append(Row("numbers", format_count(math.prod(self.shape)), "elements in the result", key=True))
        else:
            rows.append(Row("JAX raises", self.error_type, self.error, key=True))
        return tuple(rows)


def _type(shape: Shape) -> str:
    return f"{DTYPE}[{','.join(str(size) for size in shape)}]"


def _python_shape(shape: Shape) -> str:
    return f"({shape[0]},)" if len(shape) == 1 else f"({', '.join(map(str, shape))})"


@dataclass(frozen=True)
class _Signature:
    """What a function takes and returns: argument shapes with their axes' names, output likewise."""

    args: tuple[tuple[Shape, tuple[str, ...]], ...]
    out: Shape
    out_axes: tuple[str, ...]

    def arg_types(self) -> tuple[str, ...]:
        return tuple(f"{name}: {_type(shape)}" for name, (shape, _) in zip(("w", "x"), self.args, strict=True))


def compute_transform_stack(inputs: TransformStackInputs) -> TransformStackResult:
    """Apply the stack to ``f`` from the inside out.

    Examples:
        >>> run = lambda stack, **kw: compute_transform_stack(TransformStackInputs(parse_stack(stack), **kw))
        >>> print(run("vmap, grad").headline)
        vmap(grad(f))(w: f32[3], x: f32[8,3]) returns f32[8,3]: 8 per-example gradients, each f32[3]
        >>> print(run("grad, vmap").headline)
        grad(vmap(f))(w: f32[3], x: f32[8,3]) raises TypeError: Gradient only defined for scalar-output \
functions. Output had shape: (8,).
        >>> print(run("grad, mean, vmap").reading)
        one gradient of the mean over 8 examples, a reduction
        >>> run("jacrev, vmap", out=(2,)).shape
        (8, 2, 3)
    """
    sig = _Signature(((inputs.w, ("w",) * len(inputs.w)), (inputs.x, ("x",) * len(inputs.x))), inputs.out, ())
    sig = _Signature(sig.args, sig.out, ("out",) * len(inputs.out))
    levels = [Level("f", "one example: f(w, x)", sig.arg_types(), _type(sig.out), sig.out_axes, "")]
    error_type = error = ""
    for name in reversed(inputs.stack):
        sig, note, raised = _apply(name, sig, inputs)
        if raised and not error:
            error_type, error = raised
        out = error_type if error else _type(sig.out)
        levels.append(Level(name, note, sig.arg_types(), out, () if error else sig.out_axes, error))
    expression = "f"
    for name in reversed(inputs.stack):
        expression = f"{name}({expression})"
    if error:
        return TransformStackResult(expression, tuple(levels), sig.arg_types(), None, (), error_type, error, "")
    return TransformStackResult(
        expression, tuple(levels), sig.arg_types(), sig.out, sig.out_axes, "", "", _reading(inputs, sig)
    )


def _apply(name: str, sig: _Signature, inputs: TransformStackInputs) -> tuple[_Signature, str, tuple[str, str] | None]:
    """The signature after one transform, a note on what it did, and the error it raises (type, message)."""
    w_shape, w_axes = sig.args[0]
    if name == "jit":
        return sig, "compiled for these shapes: nothing changes", None
    if name in ("mean", "sum"):
        return _Signature(sig.args, (), ()), f"the output's {name}: one number", None
    if name == "grad":
        if sig.out:
            message = f"Gradient only defined for scalar-output functions. Output had shape: {_python_shape(sig.out)}."
            return sig, "", ("TypeError", message)
        return _Signature(sig.args, w_shape, w_axes), "d output / d w: shaped like w", None
    if name in ("jacfwd", "jacrev"):
        mode = "forward" if name == "jacfwd" else "reverse"
        return (
            _Signature(sig.args, sig.out + w_shape, sig.out_axes + w_axes),
            f"{mode}-mode Jacobian: the output's axes, then w's",
            None,
        )
    return _vmap(sig, inputs)


def _vmap(sig: _Signature, inputs: TransformStackInputs) -> tuple[_Signature, str, tuple[str, str] | None]:
    """vmap with ``in_axes``: each mapped argument gains the batch axis; the vmap-axes rules check the call."""
    in_axes = inputs.in_axes
    count = len(sig.args)
    axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * count
    outer = list(sig.args)
    if len(axes) == count:
        for index, ((shape, names), axis) in enumerate(zip(sig.args, axes, strict=True)):
            if axis is None:
                continue
            if not -(len(shape) + 1) <= axis <= len(shape):
                argument = "wx"[index]
                raise CalculatorInputError(
                    "in-axes", f"axis {axis} cannot be added to {argument}, which has rank {len(shape)} inside vmap"
                )
            position = axis % (len(shape) + 1)
            outer[index] = (
                (*shape[:position], inputs.batch, *shape[position:]),
                (*names[:position], "batch", *names[position:]),
            )
    arguments = tuple(Argument(n, Leaf(DTYPE, shape)) for n, (shape, _) in zip("wx", outer, strict=True))
    checked = compute_vmap_axes(VmapAxesInputs(arguments, in_axes, None, Leaf(DTYPE, sig.out), 0))
    note = f"in_axes {format_in_axes(in_axes)}: " + "; ".join(
        f"{n} whole" if axis is None else f"{n} mapped over axis {axis}" for n, axis in zip("wx", axes, strict=False)
    )
    if checked.error:
        return sig, "", ("ValueError", checked.error)
    return _Signature(tuple(outer), (inputs.batch, *sig.out), ("batch", *sig.out_axes)), note, None


def _reading(inputs: TransformStackInputs, sig: _Signature) -> str:
    """What the result's numbers are: per example or reduced; outputs, gradients or Jacobians."""
    derivatives = [name for name in inputs.stack if name in ("grad", "jacfwd", "jacrev")]
    kind = "output"
    if derivatives:
        # The Jacobian of one scalar loss per example holds one gradient per row.
        kind = "gradient" if derivatives[0] == "grad" or not inputs.out else "Jacobian"
    leading = 0
    while leading < len(sig.out_axes) and sig.out_axes[leading] == "batch":
        leading += 1
    if leading:
        count = " by ".join(str(size) for size in sig.out[:leading])
        per = "per-example " if derivatives else ""
        return f"{count} {per}{kind}s, each {_type(sig.out[leading:])}"
    reduced = [name for name in inputs.stack if name in ("mean", "sum")]
    if reduced and "vmap" in inputs.stack[inputs.stack.index(reduced[0]) :]:
        over = math.prod(inputs.batch for name in inputs.stack[inputs.stack.index(reduced[0]) :] if name == "vmap")
        return f"one {kind} of the {reduced[0]} over {over} examples, a reduction"
    if "batch" in sig.out_axes:
        return f"one {kind} whose axes are {', '.join(sig.out_axes)}"
    return f"one {kind}, for one example"


def draw_stack(result: TransformStackResult) -> Picture:
    """The stack as nested boxes, ``f`` innermost, each labelled with what its function returns.

    Examples:
        >>> print(draw_stack(compute_transform_stack(TransformStackInputs(("vmap", "grad")))).text)
        f returns f32[]; grad(f) returns f32[3]; vmap(grad(f)) returns f32[8,3]: 8 per-example gradients, \
each f32[3].
    """
    levels = result.levels
    width, inset, head, foot, core = 420, 12, 24, 8, 34
    height = core + (len(levels) - 1) * (head + foot)
    body = []
    described = []
    expression = "f"
    for depth in range(len(levels)):
        outer = len(levels) - 1 - depth  # the outermost box is drawn first, so inner ones lie on top
        level_of = levels[outer]
        x = 2 + depth * inset
        y = 2 + depth * head
        w = width - 2 * depth * inset
        h = height - depth * (head + foot)
        fill = PADDING_FILL if level_of.error else COLOURS[outer % len(COLOURS)]
        body.append(rect(x, y, w, h, fill))
        title = level_of.name if level_of.name != "f" else "f(w, x)"
        if level_of.name == "vmap":
            title += " " + level_of.note.partition(":")[0]
        body.append(label(x + 8, y + 12, title, anchor="start", size=12, weight="600"))
        body.append(label(x + w - 8, y + 12, f"→ {level_of.out}", anchor="end", size=12))
    for level in levels:
        expression = "f" if level.name == "f" else f"{level.name}({expression})"
        described.append(f"{expression} {'raises ' if level.error else 'returns '}{level.out}")
    tail = f": {result.reading}" if result.reading else f": {result.error}"
    text = "; ".join(described) + tail + ("" if tail.endswith(".") else ".")
    return svg(width + 4, height + 4, body, text)


CALCULATOR = register_calculator(
    Calculator(
        name="transform-stack",
        title="Transform stack calculator",
        summary="The shapes jit, grad, vmap, jacfwd and jacrev give a per-example function f(w, x) in the order "
        "you stack them, and JAX's error where the order fails.",
        explainer="transforms#shapes-through-a-stack",
        inputs=TransformStackInputs,
        fields=(
            Field(
                "stack",
                "text",
                "Stack (outermost first)",
                "Transforms from outside in, e.g. vmap, grad for vmap(grad(f)); also jit, jacfwd, jacrev, and mean "
                "or sum to reduce the output to one number.",
                default="vmap, grad",
                parser=parse_stack,
                formatter=format_stack,
                placeholder="jit, vmap, grad",
            ),
            Field(
                "w",
                "text",
                "w shape",
                "The parameters' shape, e.g. 3 or 3,4 (empty: a scalar); grad and the Jacobians are taken w.r.t. w.",
                default="3",
                parser=parse_shape,
                formatter=format_shape,
                placeholder="3",
            ),
            Field(
                "x",
                "text",
                "x shape (one example)",
                "One example's shape, without the batch axis, e.g. 3 (empty: a scalar).",
                default="3",
                parser=parse_shape,
                formatter=format_shape,
                placeholder="3",
            ),
            Field(
                "out",
                "text",
                "f's output shape",
                "What f(w, x) returns for one example: empty for a scalar loss, e.g. 2 for two numbers.",
                default="",
                parser=parse_shape,
                formatter=format_shape,
                placeholder="(scalar)",
            ),
            Field("batch", "int", "Batch size", "The size of the axis each vmap adds.", default="8", minimum=1),
            Field(
                "in-axes",
                "text",
                "vmap in_axes",
                "The in_axes of every vmap: one entry for w and one for x, e.g. (None, 0).",
                default="(None, 0)",
                parser=parse_in_axes,
                formatter=format_in_axes,
                placeholder="(None, 0)",
            ),
        ),
        compute=compute_transform_stack,
        picture=draw_stack,
        examples=(
            {"stack": "vmap, grad"},
            {"stack": "grad, vmap"},
            {"stack": "grad, mean, vmap"},
            {"stack": "jit, vmap, grad"},
            {"stack": "jacrev, vmap"},
            {"stack": "vmap, jacfwd", "out": "2"},
            {"stack": "vmap, grad", "in-axes": "(None, 0, 0)"},
        ),
    )
)
