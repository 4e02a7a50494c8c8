"""Graph-hash calculator: which steps of a torch_xla training loop compile a new graph, and which reuse one.

At each sync torch_xla hashes the graph it is about to run and looks the hash up in its in-memory
compile cache. The hash covers every operation with its shapes and dtypes, the order of the
graph's inputs, and the constants baked into the graph. So a step compiles when something in it
is new:

* an input shape never seen before (``8x97`` after ``8x128``); padding to a few bucket sizes, or to
  the largest size, leaves fewer shapes and so fewer compiles;
* a Python number used in arithmetic (``loss * s``): torch_xla bakes 0, 1 and -1 into the graph as
  constants (each its own graph, and ``-0.0`` is not ``0.0``) and passes every other value as a
  graph input, so other values share one graph. A value equal to another Python number the graph
  uses (the ``0.1`` of ``w - 0.1 * w.grad``, the ``2`` in the gradient of ``x.pow(2)``) shares that
  number's input, which changes the input list: one more graph;
* a Python int used as a size or a slice bound (``x[:, :n]``, ``torch.arange(n)``): every value;
* a one-element tensor made from the number (``torch.tensor([s], device=device)``) is always a
  graph input, so only its dtype matters: ``torch.tensor([1])`` is int64, ``torch.tensor([1.0])``
  float32;
* an optimizer that creates its state on its first step (Adam, SGD with momentum) runs a different
  graph on that step than on the later ones.

Every rule above was measured with torch_xla 2.9 on CPU (``met.metric_data("CompileTime")``), and
tests/oracle_torch_xla/test_graph_hash_torch_xla.py checks the calculator against it step by step.

Text syntax: ``shapes`` is one shape per step, ``8x128`` (dims joined by ``x``), separated by commas,
``;`` or new lines; ``8x128*10`` repeats a shape 10 times. ``values`` is one number per step in the
same form (``0.5*3, 1.0``), or one number for every step, or empty when the step uses none.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.limits import MAX_DIM, MAX_RANK
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.svg import HIT_FILL, MISS_FILL, Picture, label, rect, svg
from xlalens.explainers.calculators.units import format_count

MAX_STEPS = 10_000
"""More steps than this is more than anyone reads step by step; the calculator refuses."""
MAX_TEXT = 100_000
USES = ("scalar", "size", "tensor")
PADS = ("none", "buckets", "max")
_REPEAT = re.compile(r"^(.+?)\s*\*\s*([0-9]{1,6})$")
_SHAPE = re.compile(r"^[0-9]{1,19}(?:\s*x\s*[0-9]{1,19})*$")
_NUMBER = re.compile(r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")

Shape = tuple[int, ...]
Number = int | float


def _items(text: str, what: str) -> list[str]:
    """Split ``a, b*3; c`` into one item per step, repeats expanded."""
    if len(text) > MAX_TEXT:
        raise ValueError(f"{len(text)} characters; the limit is {format_count(MAX_TEXT)}")
    items: list[str] = []
    for part in re.split(r"[,;\n]", text):
        part = part.strip()
        if not part:
            continue
        count = 1
        match = _REPEAT.match(part)
        if match:
            part, count = match.group(1).strip(), int(match.group(2))
            if count < 1:
                raise ValueError(f"{part}*0 repeats nothing; give a count of at least 1")
        if len(items) + count > MAX_STEPS:
            raise ValueError(f"more than {format_count(MAX_STEPS)} steps")
        items += [part] * count
    if not items:
        raise ValueError(f"give at least one {what}")
    return items


def parse_shapes(text: str) -> tuple[Shape, ...]:
    """Read ``8x128, 8x128*2, 8x97`` into one shape per step.

    Examples:
        >>> parse_shapes("8x128, 8x128*2; 8x97")
        ((8, 128), (8, 128), (8, 128), (8, 97))
        >>> parse_shapes("16")
        ((16,),)
    """
    shapes = []
    for item in _items(text, "shape such as 8x128"):
        if not _SHAPE.match(item):
            raise ValueError(f"{item[:20]!r} is not a shape such as 8x128")
        shape = tuple(int(size) for size in item.split("x"))
        if len(shape) > MAX_RANK or math.prod(shape) >= MAX_DIM:
            raise ValueError(f"{item[:20]!r} is too large a shape")
        shapes.append(shape)
    return tuple(shapes)


def format_shape(shape: Shape) -> str:
    """A shape as ``8x128``."""
    return "x".join(str(size) for size in shape)


def _runs(items: list[str]) -> str:
    """Consecutive equal items written once with a repeat count."""
    out: list[str] = []
    index = 0
    while index < len(items):
        end = index
        while end < len(items) and items[end] == items[index]:
            end += 1
        out.append(items[index] if end - index == 1 else f"{items[index]}*{end - index}")
        index = end
    return ", ".join(out)


def format_shapes(shapes: tuple[Shape, ...]) -> str:
    """Shapes back as text, runs of one shape written with a repeat count.

    Examples:
        >>> format_shapes(((8, 128), (8, 128), (8, 97)))
        '8x128*2, 8x97'
    """
    return _runs([format_shape(shape) for shape in shapes])


def parse_values(text: str) -> tuple[Number, ...]:
    """Read ``0.5*2, 1, -0.0`` into one number per step; ``1`` stays an int and ``1.0`` a float.

    Examples:
        >>> parse_values("0.5*2, 1, -0.0")
        (0.5, 0.5, 1, -0.0)
        >>> parse_values("")
        ()
    """
    if not text.strip():
        return ()
    values: list[Number] = []
    for item in _items(text, "number"):
        if not _NUMBER.match(item) or len(item) > 40:
            raise ValueError(f"{item[:20]!r} is not a number such as 0.5 or 3")
        number: Number = int(item) if re.fullmatch(r"[+-]?[0-9]+", item) else float(item)
        if not math.isfinite(number) or abs(number) >= MAX_DIM:
            raise ValueError(f"{item[:20]!r} is too large")
        values.append(number)
    return tuple(values)


def format_number(value: Number) -> str:
    """A number as Python writes it (``0.5``, ``3``, ``-0.0``)."""
    return repr(value)


def format_values(values: tuple[Number, ...]) -> str:
    """Numbers back as text, runs written with a repeat count.

    Examples:
        >>> format_values((0.5, 0.5, 1, -0.0))
        '0.5*2, 1, -0.0'
    """
    return _runs([format_number(value) for value in values])


def _is_special(value: Number) -> bool:
    """Whether torch_xla bakes the number into the graph as a constant (0, 1 or -1)."""
    return value == 0 or abs(value) == 1


@dataclass(frozen=True)
class GraphHashInputs:
    """A loop's steps: the input shape of each, the number each uses and how, and a padding policy.

    Raises:
        CalculatorInputError: naming ``values`` when their count is neither 1 nor the number of
            shapes (one shape goes with any count of numbers) or a size is not a non-negative int,
            ``pad`` when shapes of different rank are to be padded, ``pad-axis`` past the shapes'
            rank, ``buckets`` when padding to buckets without any.
    """

    shapes: tuple[Shape, ...]
    values: tuple[Number, ...] = ()
    use: str = "scalar"
    other_numbers: tuple[Number, ...] = ()
    optimizer_state: bool = False
    pad: str = "none"
    pad_axis: int = -1
    buckets: tuple[int, ...] | None = (64, 128, 256)
    compile_seconds: float = 20.0

    def __post_init__(self) -> None:
        if len(self.shapes) == 1 and len(self.values) > 1:
            # One shape for every step, as one number is: the steps are the numbers.
            object.__setattr__(self, "shapes", self.shapes * len(self.values))
        if len(self.values) not in (0, 1, len(self.shapes)):
            raise CalculatorInputError(
                "values",
                f"{len(self.values)} numbers for {len(self.shapes)} shapes; give one per step, or one for all "
                "(or one shape for all)",
            )
        if self.use == "size" and any(not isinstance(v, int) or v < 0 for v in self.values):
            raise CalculatorInputError("values", "a size or slice bound is a whole number of at least 0")
        ranks = {len(shape) for shape in self.shapes}
        if self.pad != "none" and len(ranks) > 1:
            raise CalculatorInputError("pad", "the shapes differ in rank; padding keeps a rank, so it cannot join them")
        if len(ranks) == 1 and not -min(ranks) <= self.pad_axis < min(ranks):
            raise CalculatorInputError("pad-axis", f"axis {self.pad_axis} is out of range for rank {min(ranks)}")
        if self.pad == "buckets" and not self.buckets:
            raise CalculatorInputError("buckets", "padding to buckets needs at least one bucket size")
        if self.compile_seconds < 0:
            raise CalculatorInputError("compile-seconds", f"{self.compile_seconds} is below 0")

    def step_values(self) -> tuple[Number | None, ...]:
        """The number each step uses (``None`` when the steps use none)."""
        if not self.values:
            return (None,) * len(self.shapes)
        if len(self.values) == 1:
            return self.values * len(self.shapes)
        return self.values


@dataclass(frozen=True)
class StepOutcome:
    """One step: what its graph is keyed on and whether that key was new.

    Attributes:
        step: The step's number, from 1.
        shape: The input shape the step's graph sees (after padding).
        given: The input shape before padding.
        value: The number the step uses as the graph sees it (after padding, for a size), or ``""``.
        graph: Which distinct graph the step runs, numbered in order of first compile.
        new: Whether the step compiles (its graph hash was not in the cache).
        why: What made the graph new, or the step whose graph it reuses.
    """

    step: int
    shape: str
    given: str
    value: str
    graph: int
    new: bool
    why: str


@dataclass(frozen=True)
class PolicyCount:
    """What one padding policy gives for the same steps."""

    pad: str
    compiles: int
    padded_elements: int


@dataclass(frozen=True)
class GraphHashResult:
    """Per step, compile or cache hit; the totals; and what each padding policy would give.

    Attributes:
        steps: One outcome per step.
        compiles: Steps that compiled (distinct graph hashes).
        hits: Steps that found their graph in the cache.
        compile_seconds: The compile time of one graph.
        total_seconds: Time spent compiling over all steps.
        pad: The padding policy the steps were computed with.
        buckets: The bucket sizes, when given.
        real_elements: Input elements over all steps, before padding.
        padded_elements: Input elements over all steps, after padding.
        policies: The compile count and padded elements under each policy that applies.
        unbucketed: Sizes larger than every bucket (left as they are, each its own graph).
        warmup: How many graphs the first optimizer step adds (1 with optimizer state, else 0).
    """

    steps: tuple[StepOutcome, ...]
    compiles: int
    hits: int
    compile_seconds: float
    total_seconds: float
    pad: str
    buckets: tuple[int, ...]
    real_elements: int
    padded_elements: int
    policies: tuple[PolicyCount, ...]
    unbucketed: tuple[int, ...]
    warmup: int

    @property
    def status(self) -> Status:
        """``warning`` when the loop compiles more graphs than its first step needs, else ``ok``."""
        return "warning" if self.compiles > 1 + self.warmup else "ok"

    @property
    def headline(self) -> str:
        """Compiles, cache hits and compile time; and the fewest compiles a padding policy gives."""
        n = len(self.steps)
        text = (
            f"{format_count(n)} step{'' if n == 1 else 's'}: {format_count(self.compiles)} "
            f"compile{'' if self.compiles == 1 else 's'}, {format_count(self.hits)} cache "
            f"hit{'' if self.hits == 1 else 's'}; {format_count(self.compiles)} · "
            f"{_duration(self.compile_seconds)} = {_duration(self.total_seconds)} compiling"
        )
        best = min(self.policies, key=lambda policy: policy.compiles, default=None)
        if best is not None and best.compiles < self.compiles:
            text += (
                f"; padded to {_policy_name(best.pad, self.buckets)}: {format_count(best.compiles)} "
                f"compile{'' if best.compiles == 1 else 's'}"
            )
        return text

    def rows(self) -> tuple[Row, ...]:
        """The totals, the step-by-step outcomes, and the padding policies side by side."""
        rows = [
            Row("steps", format_count(len(self.steps))),
            Row("compiles", format_count(self.compiles), "one per distinct graph hash", key=True),
            Row("cache hits", format_count(self.hits), "steps whose graph hash was seen before", key=True),
            Row(
                "compile time",
                _duration(self.total_seconds),
                f"{format_count(self.compiles)} compile{'' if self.compiles == 1 else 's'} · "
                f"{_duration(self.compile_seconds)}",
                key=True,
            ),
        ]
        if self.warmup:
            rows.append(Row("first-step graph", "1 extra", "the optimizer creates its state on its first step"))
        for policy in self.policies:
            extra = policy.padded_elements - self.real_elements
            cost = f"{100 * extra / self.real_elements:.1f}% more input elements" if self.real_elements else ""
            formula = "as given" if policy.pad == "none" else cost
            rows.append(
                Row(
                    f"compiles, {_policy_name(policy.pad, self.buckets)}",
                    format_count(policy.compiles),
                    formula + ("; mask the padding out of the loss" if policy.pad != "none" else ""),
                    key=policy.pad != self.pad,
                )
            )
        if self.unbucketed:
            sizes = ", ".join(str(size) for size in self.unbucketed)
            rows.append(Row("larger than every bucket", sizes, "left as they are: each is its own graph"))
        for outcome in self.steps[:PICTURE_STEPS]:
            shape = outcome.shape if outcome.shape == outcome.given else f"{outcome.given} → {outcome.shape}"
            value = f", {outcome.value}" if outcome.value else ""
            # Short values: on a phone the value column is the narrowest.
            verdict = "compile" if outcome.new else "hit"
            rows.append(Row(f"step {outcome.step} ({shape}{value})", verdict, f"graph {outcome.graph}: {outcome.why}"))
        if len(self.steps) > PICTURE_STEPS:
            rows.append(Row("later steps", f"{format_count(len(self.steps) - PICTURE_STEPS)} more", "counted above"))
        return tuple(rows)


def _duration(seconds: float) -> str:
    """Seconds, with minutes or hours for long spans.

    Examples:
        >>> _duration(20.0), _duration(600.0), _duration(7200.0)
        ('20 s', '600 s (10 min)', '7,200 s (2.0 h)')
    """
    text = f"{seconds:,.0f} s" if seconds >= 10 or seconds == int(seconds) else f"{seconds:.3g} s"
    if seconds >= 3600:
        return f"{text} ({seconds / 3600:.1f} h)"
    if seconds >= 120:
        return f"{text} ({seconds / 60:.0f} min)"
    return text


def _policy_name(pad: str, buckets: tuple[int, ...]) -> str:
    if pad == "buckets":
        return f"buckets {','.join(str(size) for size in buckets)}"
    return "the largest size" if pad == "max" else "no padding"


def _bucket(size: int, buckets: tuple[int, ...]) -> int | None:
    """The smallest bucket that holds ``size``, or ``None`` when it is larger than them all."""
    fitting = [bucket for bucket in buckets if bucket >= size]
    return min(fitting) if fitting else None


def _padder(pad: str, sizes: list[int], buckets: tuple[int, ...]) -> dict[int, int]:
    """The padded size of each size of one varying dimension under ``pad``."""
    if pad == "max":
        return dict.fromkeys(sizes, max(sizes))
    if pad == "buckets":
        return {size: _bucket(size, buckets) or size for size in sizes}
    return {size: size for size in sizes}


def _padded_shapes(inputs: GraphHashInputs, pad: str) -> tuple[Shape, ...]:
    """Every step's shape with the padded axis padded under ``pad`` (the other axes are kept)."""
    if pad == "none":
        return inputs.shapes
    axis = inputs.pad_axis % len(inputs.shapes[0])
    padder = _padder(pad, [shape[axis] for shape in inputs.shapes], inputs.buckets or ())
    return tuple((*shape[:axis], padder[shape[axis]], *shape[axis + 1 :]) for shape in inputs.shapes)


def _varies(inputs: GraphHashInputs) -> bool:
    """Whether padding can change anything: the padded axis or a size varies from step to step."""
    if len({len(shape) for shape in inputs.shapes}) > 1:
        return False
    axis = inputs.pad_axis % len(inputs.shapes[0])
    sizes = {v for v in inputs.step_values() if v is not None} if inputs.use == "size" else set()
    return len({shape[axis] for shape in inputs.shapes}) > 1 or len(sizes) > 1


def _value_key(inputs: GraphHashInputs, value: Number | None) -> tuple[object, str]:
    """What the number contributes to the graph hash, and how to say so."""
    if value is None:
        return None, ""
    if inputs.use == "size":
        return value, f"size {value}"
    if inputs.use == "tensor":
        dtype = "int64" if isinstance(value, int) else "float32"
        return dtype, f"a {dtype} tensor"
    if _is_special(value):
        shown = "-0.0" if value == 0 and math.copysign(1.0, value) < 0 else format_number(float(value))
        return ("constant", shown), f"the constant {shown}"
    others = [other for other in inputs.other_numbers if not _is_special(other)]
    if any(float(other) == float(value) for other in others):
        return ("shared", float(value)), f"{format_number(value)}, which shares the input of the other {value}"
    return "data", "a graph input"


def _walk(inputs: GraphHashInputs, pad: str) -> tuple[tuple[StepOutcome, ...], int, tuple[int, ...]]:
    """The steps' outcomes under ``pad``, the padded input elements, and the sizes no bucket holds."""
    shapes = _padded_shapes(inputs, pad)
    values = inputs.step_values()
    buckets = inputs.buckets or ()
    unbucketed = set()
    if pad == "buckets":
        axis = inputs.pad_axis % len(inputs.shapes[0])
        unbucketed = {shape[axis] for shape in inputs.shapes if _bucket(shape[axis], buckets) is None}
    if inputs.use == "size" and pad != "none" and len({v for v in values if v is not None}) > 1:
        sizes = [int(v) for v in values if v is not None]
        padder = _padder(pad, sizes, buckets)
        if pad == "buckets":
            unbucketed |= {size for size in sizes if _bucket(size, buckets) is None}
        values = tuple(padder[int(v)] if v is not None else None for v in values)
    seen: dict[object, tuple[int, int]] = {}
    seen_shapes: set[Shape] = set()
    seen_values: set[object] = set()
    outcomes = []
    for index, (shape, given, value) in enumerate(zip(shapes, inputs.shapes, values, strict=True)):
        first = inputs.optimizer_state and index == 0
        value_key, value_text = _value_key(inputs, value)
        key = (shape, value_key, first)
        shown = (index + 1, format_shape(shape), format_shape(given), "" if value is None else format_number(value))
        if key in seen:
            graph, step = seen[key]
            outcomes.append(StepOutcome(*shown, graph, False, f"as step {step}"))
            continue
        graph = len(seen) + 1
        seen[key] = (graph, index + 1)
        if index == 0:
            why = "the first step: nothing is cached yet"
        elif inputs.optimizer_state and index == 1:
            why = "the optimizer's state now exists: the graph reads it instead of creating it"
        elif shape not in seen_shapes:
            why = f"new shape {format_shape(shape)}"
        elif value_key not in seen_values:
            why = f"new: {value_text}"
        else:
            why = "this shape with this number is new"
        outcomes.append(StepOutcome(*shown, graph, True, why))
        seen_shapes.add(shape)
        seen_values.add(value_key)
    elements = sum(math.prod(shape) for shape in shapes)
    return tuple(outcomes), elements, tuple(sorted(unbucketed))


def compute_graph_hash(inputs: GraphHashInputs) -> GraphHashResult:
    """Which steps compile and which hit the cache, with the totals and the padding policies compared.

    Args:
        inputs: The steps' shapes and numbers, how the number is used, and the padding policy.

    Returns:
        The outcome of every step and the counts.

    Examples:
        >>> shapes = parse_shapes("8x128, 8x128, 8x97, 8x128")
        >>> result = compute_graph_hash(GraphHashInputs(shapes))
        >>> [outcome.new for outcome in result.steps], result.compiles, result.total_seconds
        ([True, False, True, False], 2, 40.0)
        >>> compute_graph_hash(GraphHashInputs(shapes, pad="max")).compiles
        1
        >>> values = parse_values("0.5, 0.25, 1.0, 0.5")
        >>> [o.new for o in compute_graph_hash(GraphHashInputs(parse_shapes("8x128*4"), values)).steps]
        [True, False, True, False]
        >>> compute_graph_hash(GraphHashInputs(parse_shapes("8x128*4"), values, use="tensor")).compiles
        1
    """
    steps, padded, unbucketed = _walk(inputs, inputs.pad)
    buckets = inputs.buckets or ()
    policies = []
    for pad in PADS if _varies(inputs) else ():
        if pad == "buckets" and not buckets:
            continue
        if pad == inputs.pad:
            policies.append(PolicyCount(pad, sum(o.new for o in steps), padded))
            continue
        other, elements, _ = _walk(inputs, pad)
        policies.append(PolicyCount(pad, sum(o.new for o in other), elements))
    compiles = sum(outcome.new for outcome in steps)
    return GraphHashResult(
        steps=steps,
        compiles=compiles,
        hits=len(steps) - compiles,
        compile_seconds=inputs.compile_seconds,
        total_seconds=compiles * inputs.compile_seconds,
        pad=inputs.pad,
        buckets=buckets,
        real_elements=sum(math.prod(shape) for shape in inputs.shapes),
        padded_elements=padded,
        policies=tuple(policies),
        unbucketed=unbucketed,
        warmup=1 if inputs.optimizer_state and len(steps) > 1 else 0,
    )


PICTURE_STEPS = 32
"""Steps drawn (and listed one by one in the table); the counts cover every step."""
PER_ROW = 6
"""Cells per row: six keep the labels readable when the picture shrinks to a 390 px phone screen."""


def draw_steps(result: GraphHashResult) -> Picture:
    """The steps as a row of cells: a compile (orange, with the graph's number) or a cache hit (green).

    Examples:
        >>> result = compute_graph_hash(GraphHashInputs(parse_shapes("8x128, 8x128, 8x97")))
        >>> print(draw_steps(result).text)
        3 steps, 2 compiles: step 1 compiles graph 1 (8x128), step 2 hits graph 1, step 3 compiles graph 2 \
(8x97, new shape 8x97).
    """
    shown = result.steps[:PICTURE_STEPS]
    width, height, gap = 56, 50, 4
    body = []
    described = []
    for index, outcome in enumerate(shown):
        x = 2 + (index % PER_ROW) * (width + gap)
        y = 2 + (index // PER_ROW) * (height + gap + 12)
        body.append(label(x + width / 2, y + 6, f"step {outcome.step}", size=10))
        body.append(rect(x, y + 13, width, height, MISS_FILL if outcome.new else HIT_FILL))
        body.append(label(x + width / 2, y + 13 + 14, "compile" if outcome.new else "hit", size=11, weight="600"))
        body.append(label(x + width / 2, y + 13 + 30, f"graph {outcome.graph}", size=10))
        body.append(label(x + width / 2, y + 13 + 43, outcome.shape, size=9))
        if outcome.new:
            detail = outcome.shape if outcome.why.startswith("new shape") else ""
            reason = ", ".join(part for part in (detail, outcome.why) if part)
            if outcome.step == 1:
                reason = outcome.shape
            described.append(f"step {outcome.step} compiles graph {outcome.graph} ({reason})")
        else:
            described.append(f"step {outcome.step} hits graph {outcome.graph}")
    n = len(result.steps)
    more = f"; the first {len(shown)} of {format_count(n)} steps are drawn" if n > len(shown) else ""
    text = (
        f"{format_count(n)} step{'' if n == 1 else 's'}, {format_count(result.compiles)} "
        f"compile{'' if result.compiles == 1 else 's'}: {', '.join(described)}{more}."
    )
    rows = (len(shown) + PER_ROW - 1) // PER_ROW
    columns = min(len(shown), PER_ROW)
    return svg(4 + columns * (width + gap), rows * (height + gap + 12) + 2, body, text)


CALCULATOR = register_calculator(
    Calculator(
        name="graph-hash",
        title="torch_xla graph-hash calculator",
        summary="Which steps of a torch_xla loop compile a new graph and which hit the compile cache, what the "
        "compiles cost, and what padding to buckets would give.",
        explainer="torch-xla-runtime#the-graph-hash-and-the-compile-cache",
        inputs=GraphHashInputs,
        fields=(
            Field(
                "shapes",
                "text",
                "Input shape per step",
                "One shape per step such as 8x128, separated by commas (8x128*10 repeats it 10 times), or one "
                "shape for every step.",
                default="8x128, 8x128, 8x97, 8x128",
                parser=parse_shapes,
                formatter=format_shapes,
                placeholder="8x128, 8x128, 8x97, 8x128",
            ),
            Field(
                "values",
                "text",
                "Number per step",
                "Optional: a Python number the step uses, one per step or one for all (0.5*3, 1.0).",
                default="",
                parser=parse_values,
                formatter=format_values,
                placeholder="0.5, 0.5, 1.0",
            ),
            Field(
                "use",
                "choice",
                "The number is used as",
                "scalar: in arithmetic (loss * s); size: a size or slice bound (x[:, :n]); tensor: "
                "torch.tensor([s], device=device).",
                default="scalar",
                choices=USES,
            ),
            Field(
                "other-numbers",
                "text",
                "Other numbers in the graph",
                "Optional: Python numbers the step always uses, such as the 0.1 of w - 0.1 * w.grad or the 2 of "
                "x.pow(2); a scalar equal to one of them shares its input and makes another graph.",
                default="",
                parser=parse_values,
                formatter=format_values,
                placeholder="0.1",
            ),
            Field(
                "optimizer-state",
                "bool",
                "Optimizer creates state",
                "Whether the optimizer creates its state on its first step (Adam, SGD with momentum).",
                default="false",
            ),
            Field(
                "pad",
                "choice",
                "Padding",
                "How each size that varies is padded before the step: none, up to the next bucket, or up to the "
                "largest size.",
                default="none",
                choices=PADS,
            ),
            Field(
                "pad-axis",
                "int",
                "Padded axis",
                "The axis of the input shape that padding applies to (-1: the last, e.g. the sequence length; 0: "
                "the batch, for a last partial batch).",
                default="-1",
            ),
            Field(
                "buckets",
                "ints",
                "Bucket sizes",
                "The sizes padding rounds up to (e.g. 64,128,256); also used to compare policies.",
                default="64,128,256",
                minimum=1,
                optional=True,
            ),
            Field(
                "compile-seconds",
                "float",
                "Compile time (s)",
                "How long one graph takes to compile, in seconds (CompileTime in met.metrics_report()).",
                default="20",
                minimum=0,
            ),
        ),
        compute=compute_graph_hash,
        picture=draw_steps,
        examples=(
            {"shapes": "8x128, 8x128, 8x97, 8x128, 8x64, 8x97"},
            {"shapes": "8x128, 8x128, 8x97, 8x128, 8x64, 8x97", "pad": "buckets", "buckets": "64,128"},
            {"shapes": "8x128*6", "values": "0.5, 0.25, 1.0, 0.5, 0.0, 0.1", "other-numbers": "0.1"},
            {"shapes": "8x128*6", "values": "0.5, 0.25, 1.0, 0.5, 0.0, 0.1", "use": "tensor"},
            {"shapes": "8x128*5", "values": "128, 128, 97, 64, 128", "use": "size"},
            {"shapes": "8x128*3, 5x128, 8x128", "optimizer-state": "true", "pad-axis": "0", "buckets": "8"},
        ),
    )
)
