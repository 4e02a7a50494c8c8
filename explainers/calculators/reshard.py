"""Resharding calculator: what moving an array from one ``PartitionSpec`` to another costs on a mesh.

A reshard happens wherever ``jit`` finds an array laid out one way and needs it another: an
``out_shardings`` or ``with_sharding_constraint`` that differs from the input's sharding, or an
operand whose sharding the partitioner changes to fit an operation. The SPMD partitioner picks
the collective from how the mesh axes move between array dimensions:

* nothing moves: no communication;
* axes are only added to dimensions (``P(None)`` to ``P('x')``): each device already holds what it
  needs and slices it (``dynamic-slice``), no communication;
* axes are only removed (``P('x')`` to ``P(None)``): an ``all-gather`` over the removed axes; each
  device receives the part of its new, larger block that it did not have;
* the same axes move from one dimension to another (``P('x', None)`` to ``P(None, 'x')``): an
  ``all-to-all`` over the moved axes; each device sends all but ``1/g`` of its block (``g`` the
  product of the moved axes' sizes) and receives as much;
* anything else (an axis replaced by another): XLA combines ``collective-permute``, ``all-gather``
  and slices; the calculator gives the all-gather-then-slice bound.

Byte counts are per device, for even splits (JAX requires them at ``jit`` boundaries).

Text syntax: the shard-shape calculator's (``mesh`` as ``x:4,y:2``; specs as ``x,None``,
``(x,y),None``, empty for ``P()``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.limits import check_shape
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.shard_shape import (
    MAX_DEVICES,
    SpecEntry,
    format_mesh,
    format_spec,
    parse_mesh,
    parse_spec,
    spec_repr,
)
from xlalens.explainers.calculators.units import format_bytes, format_count

Collective = Literal["none", "dynamic-slice", "all-gather", "all-to-all", "general"]


def _axes(entry: SpecEntry) -> tuple[str, ...]:
    if entry is None:
        return ()
    return entry if isinstance(entry, tuple) else (entry,)


@dataclass(frozen=True)
class ReshardInputs:
    """An array of ``shape`` and ``dtype`` on ``mesh``, moved from spec ``source`` to spec ``target``.

    Raises:
        CalculatorInputError: naming the field whose value JAX would reject: a mesh axis named
            twice or missing from the mesh, a spec longer than the rank, or an uneven split.
    """

    mesh: tuple[tuple[str, int], ...]
    shape: tuple[int, ...]
    dtype: str
    source: tuple[SpecEntry, ...]
    target: tuple[SpecEntry, ...]

    def __post_init__(self) -> None:
        names = [name for name, _ in self.mesh]
        if not self.mesh or len(set(names)) != len(names):
            raise CalculatorInputError("mesh", "needs axes with distinct names")
        if any(size < 1 for _, size in self.mesh):
            raise CalculatorInputError("mesh", "axis sizes are at least 1")
        if math.prod(size for _, size in self.mesh) > MAX_DEVICES:
            raise CalculatorInputError("mesh", f"more than {format_count(MAX_DEVICES)} devices")
        check_shape("shape", self.shape, minimum=1)
        try:
            object.__setattr__(self, "dtype", dtypes.canonical(self.dtype))
        except ValueError as error:
            raise CalculatorInputError("dtype", str(error)) from None
        sizes = dict(self.mesh)
        for field, spec in (("source", self.source), ("target", self.target)):
            if len(spec) > len(self.shape):
                raise CalculatorInputError(field, f"has {len(spec)} entries for an array of rank {len(self.shape)}")
            used = [axis for entry in spec for axis in _axes(entry)]
            for axis in used:
                if axis not in sizes:
                    raise CalculatorInputError(field, f"names {axis!r}, which the mesh {format_mesh(self.mesh)} lacks")
                if used.count(axis) > 1:
                    raise CalculatorInputError(field, f"names the mesh axis {axis!r} more than once")
            for dim, entry in enumerate(spec):
                ways = math.prod(sizes[axis] for axis in _axes(entry))
                if self.shape[dim] % ways:
                    raise CalculatorInputError(
                        field, f"dimension {dim} of size {self.shape[dim]} is not divisible by {ways}"
                    )


@dataclass(frozen=True)
class ReshardResult:
    """The collective a reshard needs and the bytes each device moves.

    Attributes:
        collective: ``none``, ``dynamic-slice``, ``all-gather``, ``all-to-all`` or ``general``.
        axes: The mesh axes the collective runs over.
        source_block: Each device's block before, and ``target_block`` after.
        source_bytes: Bytes of the block before; ``target_bytes`` after.
        received: Bytes each device receives from others.
        explanation: How the axes moved.
    """

    source: str
    target: str
    collective: Collective
    axes: tuple[str, ...]
    source_block: tuple[int, ...]
    target_block: tuple[int, ...]
    source_bytes: int
    target_bytes: int
    received: int
    explanation: str

    @property
    def status(self) -> Status:
        """``ok`` without communication, ``warning`` when bytes cross the network."""
        return "ok" if self.received == 0 else "warning"

    @property
    def headline(self) -> str:
        """The collective and the bytes per device."""
        if self.collective == "none":
            return f"{self.source} → {self.target}: the same layout, nothing moves"
        if self.collective == "dynamic-slice":
            return f"{self.source} → {self.target}: each device slices what it holds (dynamic-slice), nothing moves"
        over = f" over {', '.join(self.axes)}" if self.axes else ""
        name = "all-gather then slice (at most)" if self.collective == "general" else self.collective
        return f"{self.source} → {self.target}: {name}{over}, {format_bytes(self.received)} received per device"

    def rows(self) -> tuple[Row, ...]:
        """Blocks before and after, the collective and the bytes."""
        return (
            Row("block before", _block(self.source_block), f"{format_bytes(self.source_bytes)} per device"),
            Row("block after", _block(self.target_block), f"{format_bytes(self.target_bytes)} per device"),
            Row("collective", self.collective, self.explanation),
            Row("received per device", format_bytes(self.received), _received_formula(self)),
        )


def _block(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _received_formula(result: ReshardResult) -> str:
    if result.collective == "all-gather":
        return "block after - block before"
    if result.collective == "all-to-all":
        return "block · (g - 1) / g, g = product of the moved axes' sizes"
    if result.collective == "general":
        return "the full array's bytes - block before (gather everything, keep the new block)"
    return "no communication"


def compute_reshard(inputs: ReshardInputs) -> ReshardResult:
    """The collective and bytes of moving from ``source`` to ``target``.

    Examples:
        >>> def run(source, target, shape=(16, 16)):
        ...     return compute_reshard(ReshardInputs((("x", 4), ("y", 2)), shape, "f32",
        ...                                          parse_spec(source), parse_spec(target)))
        >>> print(run("x,None", "None,None").headline)
        P('x', None) → P(None, None): all-gather over x, 768 B received per device
        >>> print(run("x,None", "None,x").headline)
        P('x', None) → P(None, 'x'): all-to-all over x, 192 B received per device
        >>> run("None,None", "x,None").collective, run("x", "(x,y)").collective, run("y", "x").collective
        ('dynamic-slice', 'dynamic-slice', 'general')
    """
    rank = len(inputs.shape)
    source = [_axes(entry) for entry in inputs.source] + [()] * (rank - len(inputs.source))
    target = [_axes(entry) for entry in inputs.target] + [()] * (rank - len(inputs.target))
    sizes = dict(inputs.mesh)
    dtype = dtypes.lookup(inputs.dtype)
    source_block = tuple(
        dim // math.prod(sizes[a] for a in axes) for dim, axes in zip(inputs.shape, source, strict=True)
    )
    target_block = tuple(
        dim // math.prod(sizes[a] for a in axes) for dim, axes in zip(inputs.shape, target, strict=True)
    )
    source_bytes = dtype.nbytes(math.prod(source_block))
    target_bytes = dtype.nbytes(math.prod(target_block))
    collective, axes, received, explanation = _classify(source, target, sizes, source_bytes, target_bytes)
    if collective == "general":
        received = dtype.nbytes(math.prod(inputs.shape)) - source_bytes
    return ReshardResult(
        source=spec_repr(inputs.source),
        target=spec_repr(inputs.target),
        collective=collective,
        axes=axes,
        source_block=source_block,
        target_block=target_block,
        source_bytes=source_bytes,
        target_bytes=target_bytes,
        received=received,
        explanation=explanation,
    )


def _classify(
    source: list[tuple[str, ...]],
    target: list[tuple[str, ...]],
    sizes: dict[str, int],
    source_bytes: int,
    target_bytes: int,
) -> tuple[Collective, tuple[str, ...], int, str]:
    if source == target:
        return "none", (), 0, "every dimension keeps its mesh axes"
    if all(after[: len(before)] == before for before, after in zip(source, target, strict=True)):
        added = tuple(axis for before, after in zip(source, target, strict=True) for axis in after[len(before) :])
        return "dynamic-slice", added, 0, f"axes only added ({', '.join(added)}): each device keeps a part of its block"
    if all(before[: len(after)] == after for before, after in zip(source, target, strict=True)):
        removed = tuple(axis for before, after in zip(source, target, strict=True) for axis in before[len(after) :])
        return (
            "all-gather",
            removed,
            target_bytes - source_bytes,
            f"axes only removed ({', '.join(removed)}): each device gathers the blocks of the devices along them",
        )
    if sorted(a for axes in source for a in axes) == sorted(a for axes in target for a in axes):
        moved = tuple(axis for dim, axes in enumerate(target) for axis in axes if axis not in source[dim])
        ways = math.prod(sizes[axis] for axis in moved)
        return (
            "all-to-all",
            moved,
            source_bytes * (ways - 1) // ways,
            f"axes moved between dimensions ({', '.join(moved)}): each device exchanges parts of its block",
        )
    return "general", (), 0, "axes replaced by others: XLA mixes collective-permute, all-gather and slices"


_SPEC_HELP = "One entry per array dimension: a mesh axis, (axis,axis) or None; empty for P() (replicated)."

CALCULATOR = register_calculator(
    Calculator(
        name="reshard",
        title="Resharding calculator",
        summary="The collective XLA's SPMD partitioner uses to move an array from one PartitionSpec to another, "
        "and the bytes each device receives.",
        explainer="spmd-partitioner#what-a-resharding-costs",
        inputs=ReshardInputs,
        fields=(
            Field(
                "mesh",
                "text",
                "Mesh",
                "Mesh axes in order as name:size, e.g. x:4,y:2.",
                default="x:4,y:2",
                parser=parse_mesh,
                formatter=format_mesh,
                placeholder="x:4,y:2",
            ),
            Field("shape", "ints", "Global shape", "The global array shape.", default="1024,1024", minimum=1),
            Field("dtype", "choice", "dtype", "Element type.", default="bf16", choices=dtypes.DTYPE_CHOICES),
            Field(
                "source",
                "text",
                "From spec",
                _SPEC_HELP,
                default="x,None",
                parser=parse_spec,
                formatter=format_spec,
                placeholder="x,None",
            ),
            Field(
                "target",
                "text",
                "To spec",
                _SPEC_HELP,
                default="None,x",
                parser=parse_spec,
                formatter=format_spec,
                placeholder="None,x",
            ),
        ),
        compute=compute_reshard,
        examples=(
            {"mesh": "x:4,y:2", "shape": "1024,1024", "dtype": "bf16", "source": "x,None", "target": "None,x"},
            {"mesh": "x:4,y:2", "shape": "1024,1024", "dtype": "bf16", "source": "x,None", "target": "None,None"},
            {"mesh": "x:4,y:2", "shape": "1024,1024", "dtype": "bf16", "source": "None,None", "target": "x,y"},
            {"mesh": "x:4,y:2", "shape": "1024,1024", "dtype": "f32", "source": "y,None", "target": "x,None"},
            {"mesh": "data:2,model:4", "shape": "8,4096", "dtype": "bf16", "source": "data,model", "target": "data"},
        ),
    )
)
