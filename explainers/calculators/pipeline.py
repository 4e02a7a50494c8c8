"""Pipeline calculator: the per-step schedule of copies and compute of a Pallas TPU kernel.

On TPU, ``pallas_call`` runs the grid as a loop nest (the last grid axis fastest) and pipelines the
operands' blocks between HBM and VMEM with two buffers each: before step 0 the first blocks are
copied in; during step ``s`` the inputs of step ``s + 1`` are copied into the other buffer while
the kernel computes on the current one. When an operand's block index is the same at consecutive
steps, its copy is skipped and the buffer reused; an output block is written back to HBM when
its index changes at the next step, and after the last step. A reduction axis placed last, with
an output index map that ignores it, therefore keeps the output block in VMEM across the whole
reduction and writes it once.

Text syntax: ``grid`` is ``4,3``; ``inputs`` and ``outputs`` are ``name: index map`` separated by
``;`` (``x: lambda i, j: (i, 0); w: lambda i, j: (0, j)``), in the index-map syntax of the
BlockSpec calculator.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field

from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.index_map import IndexMap, evaluator, parse_index_map
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.svg import COLOURS, PADDING_FILL, Picture, label, rect, svg

MAX_STEPS = 1 << 16
"""Grids with more steps are not walked step by step."""
SHOWN_STEPS = 32
"""Steps listed in the table; the counts cover every step."""
_OPERAND = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(lambda\b.*)$", re.S)


@dataclass(frozen=True)
class Operand:
    """One operand: its name and index map (compared by its text)."""

    name: str
    text: str
    index_map: IndexMap = field(compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.name}: {self.index_map.text}"


def parse_operands(text: str) -> tuple[Operand, ...]:
    """Read ``x: lambda i, j: (i, 0); w: lambda i, j: (0, j)``.

    Examples:
        >>> [str(operand) for operand in parse_operands("x: lambda i: (i, 0); w: lambda i: (0, 0)")]
        ['x: lambda i: (i, 0)', 'w: lambda i: (0, 0)']
    """
    operands = []
    for part in (part for part in text.split(";") if part.strip()):
        match = _OPERAND.match(part)
        if not match:
            raise ValueError(f"expected name: lambda ...; got {part.strip()[:40]!r}")
        index_map = parse_index_map(match.group(2))
        operands.append(Operand(match.group(1), index_map.text, index_map))
    names = [operand.name for operand in operands]
    if len(set(names)) != len(names):
        raise ValueError("operand names must differ")
    return tuple(operands)


def format_operands(operands: tuple[Operand, ...]) -> str:
    """Operands back as text."""
    return "; ".join(str(operand) for operand in operands)


@dataclass(frozen=True)
class PipelineInputs:
    """A grid and the index maps of the kernel's inputs and outputs."""

    grid: tuple[int, ...]
    inputs: tuple[Operand, ...]
    outputs: tuple[Operand, ...]

    def __post_init__(self) -> None:
        if math.prod(self.grid) > MAX_STEPS:
            raise CalculatorInputError("grid", f"{math.prod(self.grid):,} steps; the limit is {MAX_STEPS:,}")
        for operand in (*self.inputs, *self.outputs):
            if len(operand.index_map.params) != len(self.grid):
                raise CalculatorInputError(
                    "grid",
                    f"has {len(self.grid)} axes but {operand.name}'s index map takes "
                    f"{len(operand.index_map.params)} grid indices",
                )
        if not self.outputs:
            raise CalculatorInputError("outputs", "a kernel has at least one output")


@dataclass(frozen=True)
class Step:
    """One grid step: its program ids, the copies issued for it, and the write-backs after it."""

    ids: tuple[int, ...]
    copies: tuple[str, ...]
    writes: tuple[str, ...]


@dataclass(frozen=True)
class PipelineResult:
    """The schedule: per step what is copied in and written back, and the totals per operand.

    Attributes:
        steps: How many grid steps.
        copies: ``(name, copies)`` per input: blocks fetched from HBM over the whole grid.
        writes: ``(name, writes)`` per output: blocks written back to HBM.
        schedule: The first :data:`SHOWN_STEPS` steps.
    """

    grid: tuple[int, ...]
    steps: int
    copies: tuple[tuple[str, int], ...]
    writes: tuple[tuple[str, int], ...]
    schedule: tuple[Step, ...]

    @property
    def status(self) -> Status:
        """Always ``ok``: the schedule is a description, not a verdict."""
        return "ok"

    @property
    def headline(self) -> str:
        """Steps, copies in and writes back."""
        copies = ", ".join(f"{name} {count}" for name, count in self.copies) or "none"
        writes = ", ".join(f"{name} {count}" for name, count in self.writes)
        return f"{self.steps} steps; block copies in: {copies}; write-backs: {writes}"

    def rows(self) -> tuple[Row, ...]:
        """One row per shown step, then the totals."""
        rows = []
        for number, step in enumerate(self.schedule):
            copies = ", ".join(step.copies) if step.copies else "no copy (blocks reused)"
            timing = "before step 0" if number == 0 else f"during step {number - 1}"
            done = f"; after it: write {', '.join(step.writes)}" if step.writes else ""
            rows.append(Row(f"step {number} {_ids(step.ids)}", copies, f"copies {timing}{done}"))
        if self.steps > len(self.schedule):
            rows.append(Row("…", f"{self.steps - len(self.schedule)} more steps", "counted in the totals"))
        rows += [
            Row(f"{name} copies in", str(count), "block index changes, plus the first") for name, count in self.copies
        ]
        rows += [
            Row(f"{name} write-backs", str(count), "block index changes, plus the last") for name, count in self.writes
        ]
        return tuple(rows)


def _ids(ids: tuple[int, ...]) -> str:
    return "(" + ", ".join(map(str, ids)) + ("," if len(ids) == 1 else "") + ")"


def _blocks(operand: Operand, ids: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(evaluator(operand.index_map, dim)(ids) for dim in range(operand.index_map.rank))


def compute_pipeline(inputs: PipelineInputs) -> PipelineResult:
    """Walk the grid in order and record copies and write-backs.

    Examples:
        >>> result = compute_pipeline(PipelineInputs(
        ...     (2, 2, 3),
        ...     parse_operands("x: lambda i, j, k: (i, k); y: lambda i, j, k: (k, j)"),
        ...     parse_operands("o: lambda i, j, k: (i, j)")))
        >>> print(result.headline)
        12 steps; block copies in: x 12, y 12; write-backs: o 4
    """
    order = list(itertools.product(*(range(size) for size in inputs.grid)))
    copies = {operand.name: 0 for operand in inputs.inputs}
    writes = {operand.name: 0 for operand in inputs.outputs}
    schedule = []
    previous: dict[str, tuple[int, ...]] = {}
    for position, ids in enumerate(order):
        fetched = []
        for operand in inputs.inputs:
            block = _blocks(operand, ids)
            if previous.get(operand.name) != block:
                copies[operand.name] += 1
                fetched.append(f"{operand.name}{_ids(block)}")
            previous[operand.name] = block
        following = order[position + 1] if position + 1 < len(order) else None
        written = []
        for operand in inputs.outputs:
            block = _blocks(operand, ids)
            if following is None or _blocks(operand, following) != block:
                writes[operand.name] += 1
                written.append(f"{operand.name}{_ids(block)}")
        if position < SHOWN_STEPS:
            schedule.append(Step(ids, tuple(fetched), tuple(written)))
    return PipelineResult(
        grid=inputs.grid,
        steps=len(order),
        copies=tuple(copies.items()),
        writes=tuple(writes.items()),
        schedule=tuple(schedule),
    )


PICTURE_STEPS = 16
"""Steps drawn in the timeline (the table lists more)."""
STEPS_PER_ROW = 4
"""Steps per band of the timeline: four fit a phone's width with their block indices readable."""


def draw_schedule(result: PipelineResult) -> Picture:
    """The schedule as a timeline: per grid step, the copies in (issued one step ahead), compute, write-backs.

    Examples:
        >>> inputs = parse_operands("x: lambda i: (i, 0); w: lambda i: (0, 0)")
        >>> result = compute_pipeline(PipelineInputs((2,), inputs, parse_operands("o: lambda i: (i, 0)")))
        >>> print(draw_schedule(result).text)
        Timeline of 2 grid steps. Step 0 (0,): copy in x(0, 0), w(0, 0); compute; write back o(0, 0). \
Step 1 (1,): copy in x(1, 0); compute; write back o(1, 0).
    """
    steps = result.schedule[:PICTURE_STEPS]
    names = [name for name, _ in result.copies] + ["compute"] + [name for name, _ in result.writes]
    left, width, height, top = 64, 58, 24, 20
    band = top + len(names) * height + 10
    body = []
    for first in range(0, max(len(steps), 1), STEPS_PER_ROW):
        y0 = (first // STEPS_PER_ROW) * band
        for index in range(first, min(first + STEPS_PER_ROW, len(steps))):
            x = left + (index - first) * width + width / 2
            body.append(label(x, y0 + 10, f"step {index}", size=10))
        for row, name in enumerate(names):
            body.append(label(left - 6, y0 + top + row * height + height / 2, name, anchor="end", size=11))
    colours = {name: COLOURS[index % len(COLOURS)] for index, name in enumerate(names)}
    described = []
    for column, step in enumerate(steps):
        x = left + (column % STEPS_PER_ROW) * width
        y0 = (column // STEPS_PER_ROW) * band
        copied = {entry.split("(")[0]: entry for entry in step.copies}
        written = {entry.split("(")[0]: entry for entry in step.writes}
        for row, name in enumerate(names):
            y = y0 + top + row * height
            if name == "compute":
                body.append(rect(x + 2, y + 3, width - 4, height - 6, "#c9d3e6"))
            elif name in copied:
                body.append(rect(x + 2, y + 3, width - 4, height - 6, colours[name]))
                body.append(label(x + width / 2, y + height / 2, copied[name][len(name) :], size=9))
            elif name in written:
                body.append(rect(x + 2, y + 3, width - 4, height - 6, PADDING_FILL))
                body.append(label(x + width / 2, y + height / 2, written[name][len(name) :], size=9))
        parts = [f"copy in {', '.join(step.copies)}"] if step.copies else ["no copy (blocks reused)"]
        parts.append("compute")
        if step.writes:
            parts.append(f"write back {', '.join(step.writes)}")
        described.append(f"Step {column} {_ids(step.ids)}: {'; '.join(parts)}.")
    more = f" The first {len(steps)} of {result.steps} steps are drawn." if result.steps > len(steps) else ""
    text = f"Timeline of {result.steps} grid steps. " + " ".join(described) + more
    columns = min(max(len(steps), 1), STEPS_PER_ROW)
    bands = (max(len(steps), 1) + STEPS_PER_ROW - 1) // STEPS_PER_ROW
    return svg(left + columns * width + 4, bands * band - 6, body, text)


CALCULATOR = register_calculator(
    Calculator(
        name="pipeline",
        title="Pallas pipeline schedule",
        summary="Per grid step, which blocks a Pallas TPU kernel copies in and writes back, and how many copies "
        "each operand costs over the grid.",
        explainer="pallas-pipeline#the-schedule",
        inputs=PipelineInputs,
        fields=(
            Field(
                "grid", "ints", "Grid", "The grid, e.g. 2,2,3 (the last axis runs fastest).", default="2,2,3", minimum=1
            ),
            Field(
                "inputs",
                "text",
                "Input index maps",
                "name: index map per input, separated by ; (e.g. x: lambda i, j, k: (i, k)).",
                default="x: lambda i, j, k: (i, k); y: lambda i, j, k: (k, j)",
                parser=parse_operands,
                formatter=format_operands,
                placeholder="x: lambda i, j, k: (i, k)",
            ),
            Field(
                "outputs",
                "text",
                "Output index maps",
                "name: index map per output, separated by ;.",
                default="o: lambda i, j, k: (i, j)",
                parser=parse_operands,
                formatter=format_operands,
                placeholder="o: lambda i, j, k: (i, j)",
            ),
        ),
        compute=compute_pipeline,
        picture=draw_schedule,
        examples=(
            {"grid": "2,2,3", "inputs": "x: lambda i, j, k: (i, k); y: lambda i, j, k: (k, j)"},
            {"grid": "8", "inputs": "x: lambda i: (i, 0); w: lambda i: (0, 0)", "outputs": "o: lambda i: (i, 0)"},
            {
                "grid": "2,3,2",
                "inputs": "x: lambda i, k, j: (i, k); y: lambda i, k, j: (k, j)",
                "outputs": "o: lambda i, k, j: (i, j)",
            },
        ),
    )
)
