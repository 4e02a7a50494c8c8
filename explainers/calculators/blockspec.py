"""BlockSpec calculator: grid, padding, coverage, the TPU block-shape rule and VMEM for one operand.

A Pallas ``BlockSpec(block_shape, index_map)`` cuts an array into blocks; ``index_map`` turns the
grid indices into block indices, and block ``k`` of an axis starts at element ``k · block``. The
grid that covers an axis of size ``A`` with blocks of ``b`` has ``cdiv(A, b)`` steps, and its last
block reaches ``cdiv(A, b) · b - A`` elements past the end: reads there are padding with
unspecified values, writes there are dropped. A grid smaller than that never visits the rest, so
an output there is never written.

On TPU, Mosaic requires the last two block dimensions to be multiples of 128 (lanes) and 8
(sublanes) or equal to the array's (``jax/_src/pallas/mosaic/lowering.py``,
``_check_block_mappings``), and keeps ``buffers`` copies of each block in VMEM, padded to the
memory tile (Mosaic's ``infer_memref_layout``, with the sublane tiling JAX assumes in
``tpu_info.get_sublane_tiling``).

Text syntax: ``block`` is comma-separated sizes where ``None`` is a squeezed dimension (size 1,
dropped from the kernel's ref); ``grid`` is comma-separated sizes or empty for the grid that covers
the array; ``index-map`` is ``blocked``, ``constant`` or the map itself as a lambda over the grid
axes (``lambda i, j, k: (i, k)``, see :mod:`.index_map`); ``other-buffers`` lists the kernel's
other VMEM buffers (its other operands' blocks and its scratch) as ``name=COUNTxSHAPE DTYPE``
entries separated by ``;``, so the VMEM total covers the whole kernel.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.index_map import Visits, parse_index_map, visit
from xlalens.explainers.calculators.limits import check_shape
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.svg import COLOURS, LINE, PADDING_FILL, Picture, rect, svg
from xlalens.explainers.calculators.units import format_bytes, format_bytes_exact, format_count

LANES = 128
SUBLANES = 8
MiB = 2**20

SCOPED_LIMIT_LABEL = "observed default, configurable via vmem_limit_bytes"
GIVEN_LIMIT_LABEL = "vmem_limit_bytes from the code"
MAX_BUFFERS = 64


@dataclass(frozen=True)
class TpuGeneration:
    """VMEM figures for one TPU generation, per TensorCore.

    Attributes:
        name: The choice name (``v5e``).
        generation: The number Mosaic's layout rules use (4, 5, 6, 7).
        vmem_bytes: VMEM capacity per TensorCore (``TpuInfo.vmem_capacity_bytes`` in JAX).
        scoped_limit_bytes: The default scoped VMEM limit one kernel gets; libtpu's value is not
            public, so this is what public compiler logs show.
        scoped_limit_source: Where the scoped limit was seen.
    """

    name: str
    generation: int
    vmem_bytes: int
    scoped_limit_bytes: int
    scoped_limit_source: str


_VMEM_SOURCE = "jax/_src/pallas/mosaic/tpu_info.py, per TensorCore"
TPUS: dict[str, TpuGeneration] = {
    tpu.name: tpu
    for tpu in (
        TpuGeneration("v4", 4, 16 * MiB, 16 * MiB, "assumed equal to v5e's 16 MiB; v4 has 16 MiB of VMEM"),
        TpuGeneration("v5e", 5, 128 * MiB, 16 * MiB, "compiler logs: 'limit 16.00M'"),
        TpuGeneration("v5p", 5, 64 * MiB, 16 * MiB, "compiler logs: 'limit 16.00M'"),
        TpuGeneration("v6e", 6, 128 * MiB, 32 * MiB, "compiler logs: 'limit 32.00M exceeded scoped vmem limit'"),
        TpuGeneration("7x", 7, 64 * MiB, 64 * MiB, "jax-ml/jax#38988: 'Used 65.05M of 64.00M vmem'"),
    )
}


def parse_block(text: str) -> tuple[int | None, ...]:
    """Read block sizes, where ``None`` (or ``pl.Squeezed()``) is a squeezed dimension.

    Raises:
        ValueError: for entries that are neither integers nor ``None``.

    Examples:
        >>> parse_block("None, 8, 128")
        (None, 8, 128)
        >>> parse_block("(256, pl.Squeezed())")
        (256, None)
        >>> parse_block("8, x")
        Traceback (most recent call last):
        ...
        ValueError: entry 1: 'x' is neither a block size nor None
    """
    body = text.strip()
    if body[:1] in "([" and body[-1:] in ")]":
        body = body[1:-1]
    parts = [part.strip() for part in body.split(",")]
    if len(parts) > 1 and not parts[-1]:
        parts.pop()  # the trailing comma of a one-entry tuple
    if not parts or parts == [""]:
        raise ValueError("is empty; write block sizes such as 8,128 (None for a squeezed dimension)")
    sizes: list[int | None] = []
    for index, part in enumerate(parts):
        if part in ("None", "pl.Squeezed()", "Squeezed()", "squeezed"):
            sizes.append(None)
            continue
        digits = part.replace("_", "")
        if not digits.isdigit() or len(digits) > 20:
            raise ValueError(f"entry {index}: {part[:30]!r} is neither a block size nor None")
        sizes.append(int(digits))
    return tuple(sizes)


def format_block(block: tuple[int | None, ...]) -> str:
    """Block sizes back as text.

    Examples:
        >>> format_block((None, 8, 128))
        'None,8,128'
    """
    return ",".join("None" if size is None else str(size) for size in block)


def read_index_map(text: str) -> str:
    """Normalize an index map: ``blocked``, ``constant`` or a lambda over the grid axes.

    Raises:
        ValueError: for anything else, naming what is not supported.

    Examples:
        >>> read_index_map("lambda i,j:(i,0)")
        'lambda i, j: (i, 0)'
        >>> read_index_map(" constant ")
        'constant'
    """
    stripped = text.strip()
    if stripped in ("blocked", "constant"):
        return stripped
    return parse_index_map(stripped).text


@dataclass(frozen=True)
class OtherBuffer:
    """A VMEM buffer of the same kernel that is not this operand's block.

    Attributes:
        name: What it is (an operand's name, ``scratch``…).
        count: How many copies VMEM holds (2 for a double-buffered block, 1 for scratch).
        shape: Its shape as the kernel sees it (squeezed dimensions dropped).
        dtype: Its element type's short name.
    """

    name: str
    count: int
    shape: tuple[int, ...]
    dtype: str


def parse_other_buffers(text: str) -> tuple[OtherBuffer, ...]:
    """Read ``name=COUNTxSHAPE DTYPE`` entries separated by ``;`` (the name is optional).

    Raises:
        ValueError: naming the entry that cannot be read.

    Examples:
        >>> buffers = parse_other_buffers("w=2x1024,1024 bf16; acc=1x(512, 64) float32")
        >>> [(b.name, b.count, b.shape, b.dtype) for b in buffers]
        [('w', 2, (1024, 1024), 'bf16'), ('acc', 1, (512, 64), 'f32')]
        >>> parse_other_buffers("")
        ()
    """
    buffers: list[OtherBuffer] = []
    for number, raw in enumerate(part.strip() for part in text.split(";")):
        if not raw:
            continue
        name, sep, rest = raw.partition("=")
        if not sep:
            name, rest = f"buffer {number + 1}", raw
        name = name.strip()
        if not name or len(name) > 40 or not all(ch.isalnum() or ch in "_-[]. " for ch in name):
            raise ValueError(f"entry {number + 1}: {name[:30]!r} is not a buffer name")
        count_text, times, shape_dtype = rest.strip().partition("x")
        shape_text, _, dtype_text = shape_dtype.strip().rpartition(" ")
        if not times or not shape_text.strip() or not dtype_text:
            raise ValueError(f"entry {number + 1}: {raw[:40]!r} is not COUNTxSHAPE DTYPE, e.g. w=2x1024,1024 bf16")
        count_digits = count_text.strip()
        if not count_digits.isdigit() or not 1 <= int(count_digits) <= MAX_BUFFERS:
            raise ValueError(
                f"entry {number + 1}: the count {count_digits[:20]!r} is not a number from 1 to {MAX_BUFFERS}"
            )
        shape = _read_sizes(shape_text, number)
        buffers.append(OtherBuffer(name, int(count_digits), shape, dtypes.canonical(dtype_text)))
    return tuple(buffers)


def _read_sizes(text: str, number: int) -> tuple[int, ...]:
    body = text.strip().strip("()[]")
    parts = [part.strip() for part in body.split(",")]
    if parts and not parts[-1]:
        parts.pop()
    if not parts or any(not part.replace("_", "").isdigit() or len(part) > 20 for part in parts):
        raise ValueError(f"entry {number + 1}: {text.strip()[:30]!r} is not a shape such as 512,1024")
    sizes = tuple(int(part.replace("_", "")) for part in parts)
    try:
        check_shape("shape", sizes, minimum=1)
    except CalculatorInputError as error:
        raise ValueError(f"entry {number + 1}: {error.message}") from None
    return sizes


def format_other_buffers(buffers: tuple[OtherBuffer, ...] | str) -> str:
    """Other buffers back as text (text is read and written back in normal form).

    Examples:
        >>> format_other_buffers((OtherBuffer("w", 2, (1024, 1024), "bf16"),))
        'w=2x1024,1024 bf16'
        >>> format_other_buffers("w = 2x(1024, 1024) bfloat16")
        'w=2x1024,1024 bf16'
    """
    if isinstance(buffers, str):
        buffers = parse_other_buffers(buffers)
    return "; ".join(f"{b.name}={b.count}x{','.join(map(str, b.shape))} {b.dtype}" for b in buffers)


@dataclass(frozen=True)
class BlockSpecInputs:
    """One operand of a ``pallas_call``: its array, its BlockSpec and the grid.

    Attributes:
        array: The operand's shape.
        dtype: Its element type (any spelling; stored as the short name).
        block: Block sizes; ``None`` is a squeezed dimension of size 1.
        grid: The grid, or ``None`` for the grid that covers the array.
        index_map: ``blocked`` (grid axis i gives the block index along array axis i), ``constant``
            (every step uses block 0), or the index map as a lambda over the grid axes.
        tpu: The TPU generation for the VMEM figures.
        buffers: VMEM copies per block: 2 (the default double buffering) or 1.
        other_buffers: The kernel's other VMEM buffers (other operands' blocks, scratch).
        vmem_limit: The kernel's ``vmem_limit_bytes``, or ``None`` for the generation's default.

    Raises:
        CalculatorInputError: naming the field for a rank mismatch, sizes below 1, a blocked grid
            whose length is not the array's rank, a lambda index map that does not fit the grid or
            the array, absurd sizes, or a buffer count other than 1 or 2.
    """

    array: tuple[int, ...]
    dtype: str
    block: tuple[int | None, ...]
    grid: tuple[int, ...] | None = None
    index_map: str = "blocked"
    tpu: str = "v5e"
    buffers: int = 2
    other_buffers: tuple[OtherBuffer, ...] = ()
    vmem_limit: int | None = None

    def __post_init__(self) -> None:
        check_shape("array", self.array, minimum=1)
        try:
            object.__setattr__(self, "dtype", dtypes.canonical(self.dtype))
        except ValueError as error:
            raise CalculatorInputError("dtype", str(error)) from None
        if len(self.block) != len(self.array):
            raise CalculatorInputError(
                "block",
                f"has {len(self.block)} dimensions but the array has {len(self.array)}; a block shape needs one "
                "size (or None) per array dimension",
            )
        check_shape("block", tuple(1 if size is None else size for size in self.block), minimum=1)
        try:
            object.__setattr__(self, "index_map", read_index_map(self.index_map))
        except ValueError as error:
            raise CalculatorInputError("index-map", str(error)) from None
        if self.grid is not None:
            if self.grid:
                check_shape("grid", self.grid, minimum=1)
            if self.index_map == "blocked" and len(self.grid) != len(self.array):
                raise CalculatorInputError(
                    "grid",
                    f"has {len(self.grid)} axes but the blocked index map needs one per array dimension "
                    f"({len(self.array)}); leave it empty for the grid that covers the array",
                )
        if self.index_map not in ("blocked", "constant"):
            if self.grid is None:
                raise CalculatorInputError("grid", "is needed to evaluate a lambda index map")
            try:
                _visits(self.index_map, self.grid, _needed(self.array, self.block))
            except ValueError as error:
                raise CalculatorInputError("index-map", str(error)) from None
        if self.tpu not in TPUS:
            raise CalculatorInputError("tpu", f"{self.tpu!r} is not one of {', '.join(TPUS)}")
        if self.buffers not in (1, 2):
            raise CalculatorInputError(
                "buffers", f"Only single (1) and double (2) buffering are supported. Got {self.buffers}."
            )
        if self.vmem_limit is not None and self.vmem_limit < 1:
            raise CalculatorInputError("vmem-limit", f"{self.vmem_limit} is below the minimum 1")


def _needed(array: tuple[int, ...], block: tuple[int | None, ...]) -> tuple[int, ...]:
    return tuple(_cdiv(a, 1 if b is None else b) for a, b in zip(array, block, strict=True))


@functools.lru_cache(maxsize=64)
def _visits(index_map: str, grid: tuple[int, ...], needed: tuple[int, ...]) -> Visits:
    """The block indices a lambda index map takes over the grid (cached: validation and compute share it)."""
    return visit(parse_index_map(index_map), grid, needed)


@dataclass(frozen=True)
class AxisBlocks:
    """The blocks along one array axis.

    Attributes:
        axis: The array axis.
        size: The array's size along it.
        block: The block size (1 for a squeezed dimension).
        needed: ``cdiv(size, block)``, the grid that covers the axis.
        grid: How many block indices the steps take along it: the grid size (blocked index map),
            1 (constant index map), or the distinct indices a lambda index map takes.
        last_start: First element of the last covering block, ``(needed - 1) · block``.
        last_end: Last element it addresses, ``needed · block - 1``.
        padded: Elements of the last block past the end, ``needed · block - size``.
        covered: Elements the visited blocks reach, ``min(grid · block, size)`` for a blocked map.
        low: The smallest block index taken.
        high: The largest block index taken (``needed`` or more is past the end).
        exact: Whether every index taken is known; ``False`` when a grid too large to enumerate
            gave only the extremes (the indices in between are then assumed taken).
        constant: Whether the block index is the same at every step.
        last_visited: Whether some step takes the last block, the one that reads padding.
        in_range: How many distinct block indices in ``[0, needed)`` the steps take.
    """

    axis: int
    size: int
    block: int
    needed: int
    grid: int
    last_start: int
    last_end: int
    padded: int
    covered: int
    low: int = 0
    high: int = 0
    exact: bool = True
    constant: bool = False
    last_visited: bool = True
    in_range: int = 1

    @property
    def past_end(self) -> bool:
        """Whether some step takes a block index outside ``[0, needed)``."""
        return self.high >= self.needed or self.low < 0


@dataclass(frozen=True)
class BufferBytes:
    """One of the kernel's other VMEM buffers, padded to its memory tile.

    Attributes:
        name: What it is.
        count: Copies in VMEM.
        shape: The shape the kernel sees.
        vmem_shape: ``shape`` padded to the memory tile.
        dtype: The element type's short name.
        padded_bytes: Bytes of one copy in VMEM.
        bytes: ``count · padded_bytes``.
    """

    name: str
    count: int
    shape: tuple[int, ...]
    vmem_shape: tuple[int, ...]
    dtype: str
    padded_bytes: int
    bytes: int


@dataclass(frozen=True)
class BlockSpecResult:
    """Grid, coverage, TPU tiling and VMEM for one operand.

    Attributes:
        array: The array shape.
        dtype: The element type's short name.
        block: Block sizes with squeezed dimensions as 1.
        squeezed: Which dimensions are squeezed.
        index_map: ``blocked`` or ``constant``.
        grid_needed: ``cdiv(array, block)`` per axis.
        grid: The grid used (given, or the needed one; ``()`` for a constant map without a grid).
        grid_given: Whether the grid was given.
        steps: Kernel invocations, the product of the grid.
        axes: Per-axis block arithmetic.
        processed_elements: Elements the visited blocks address, padding included.
        padded_elements: Of those, the ones past the end of the array.
        uncovered_elements: Array elements no visited block reaches.
        past_end_steps: Steps whose block lies entirely past the end on some axis; ``None`` when a
            lambda index map's grid is too large to count them.
        tiling_problems: Why Mosaic rejects the block shape (empty when it accepts it).
        tiling_checks: The rule with the user's numbers, one line per checked dimension.
        ref_shape: The block as the kernel sees it (squeezed dimensions dropped).
        vmem_shape: ``ref_shape`` padded to the VMEM memory tile.
        vmem_tile: The memory tile (rows, lanes) of the last two dimensions; ``(elements,)`` for rank 1.
        block_bytes: Bytes of one block without tile padding.
        padded_block_bytes: Bytes of one block in VMEM.
        trivial_window: Block equals the array and the index map is constant, so 1 buffer is used.
        buffers: Buffers actually allocated.
        vmem_bytes: ``buffers · padded_block_bytes``.
        tpu: The generation.
        vmem_capacity_bytes: VMEM per TensorCore.
        scoped_limit_bytes: The default scoped VMEM limit (observed).
        index_map_text: The lambda index map, or ``""`` for ``blocked``/``constant``.
        other_buffers: The kernel's other VMEM buffers with their padded bytes.
        total_vmem_bytes: ``vmem_bytes`` plus the other buffers.
        vmem_limit_bytes: The limit the total is held against: ``vmem_limit_bytes`` when given,
            else the scoped default.
        vmem_limit_given: Whether the limit came from the code.
    """

    array: tuple[int, ...]
    dtype: str
    block: tuple[int, ...]
    squeezed: tuple[bool, ...]
    index_map: str
    grid_needed: tuple[int, ...]
    grid: tuple[int, ...]
    grid_given: bool
    steps: int
    axes: tuple[AxisBlocks, ...]
    processed_elements: int
    padded_elements: int
    uncovered_elements: int
    past_end_steps: int | None
    tiling_problems: tuple[str, ...]
    tiling_checks: tuple[str, ...]
    ref_shape: tuple[int, ...]
    vmem_shape: tuple[int, ...]
    vmem_tile: tuple[int, ...]
    block_bytes: int
    padded_block_bytes: int
    trivial_window: bool
    buffers: int
    vmem_bytes: int
    tpu: str
    vmem_capacity_bytes: int
    scoped_limit_bytes: int
    index_map_text: str = ""
    other_buffers: tuple[BufferBytes, ...] = ()
    total_vmem_bytes: int = 0
    vmem_limit_bytes: int = 0
    vmem_limit_given: bool = False

    @property
    def vmem_over_limit(self) -> bool:
        """Whether the kernel's VMEM estimate exceeds the limit it is held against."""
        return self.total_vmem_bytes > self.vmem_limit_bytes

    @property
    def grid_mismatch(self) -> bool:
        """A given blocked grid that differs from the covering one."""
        return self.index_map == "blocked" and self.grid != self.grid_needed

    @property
    def status(self) -> Status:
        """``error`` for a rejected block shape, VMEM over capacity or over a ``vmem_limit_bytes``
        given in the code; ``warning`` for padding, uncovered elements, a grid other than the
        covering one, blocks past the end, or VMEM over the (observed) default scoped limit."""
        over_given = self.vmem_limit_given and self.vmem_over_limit
        if self.tiling_problems or self.total_vmem_bytes > self.vmem_capacity_bytes or over_given:
            return "error"
        if (
            self.padded_elements
            or self.uncovered_elements
            or self.grid_mismatch
            or self.past_end_steps
            or any(axis.past_end for axis in self.axes)
            or self.vmem_over_limit
        ):
            return "warning"
        return "ok"

    @property
    def headline(self) -> str:
        """Grid and steps, padding, coverage and VMEM against the limits, in one sentence."""
        parts: list[str] = []
        if self.tiling_problems:
            parts.append(f"TPU rejects the block shape: {self.tiling_problems[0]}")
        grid = f"grid {_shape(self.grid)} = {format_count(self.steps)} step{'' if self.steps == 1 else 's'}"
        if self.grid_mismatch:
            grid += f" (covering grid {_shape(self.grid_needed)})"
        parts.append(grid)
        if self.index_map != "constant":
            for axis in self.axes:
                if axis.padded and axis.last_visited:
                    parts.append(
                        f"last block on axis {axis.axis} spans {axis.last_start}-{axis.last_end}: "
                        f"{axis.size - axis.last_start} real, {axis.padded} padded"
                    )
        elif self.padded_elements:
            parts.append(f"the block reaches {format_count(self.padded_elements)} elements past the array")
        if self.uncovered_elements:
            parts.append(
                f"{format_count(self.uncovered_elements)} of {format_count(math.prod(self.array))} elements are "
                "never visited (an output there is never written)"
            )
        if self.past_end_steps:
            parts.append(f"{format_count(self.past_end_steps)} steps address blocks entirely past the end")
        elif self.past_end_steps is None:
            parts.extend(
                f"block indices on axis {axis.axis} reach {axis.high} (the last block is {axis.needed - 1})"
                for axis in self.axes
                if axis.past_end
            )
        limit = GIVEN_LIMIT_LABEL if self.vmem_limit_given else SCOPED_LIMIT_LABEL
        parts.append(
            f"VMEM {format_bytes(self.total_vmem_bytes)} of {format_bytes(self.vmem_limit_bytes)} scoped limit "
            f"({limit}; {format_bytes(self.vmem_capacity_bytes)} capacity on {self.tpu})"
        )
        return "; ".join(parts)

    def rows(self) -> tuple[Row, ...]:
        """Grid, per-axis padding, coverage, tiling and VMEM, with the numbers substituted."""
        rows = [
            Row("array", f"{_shape(self.array)} {self.dtype}"),
            Row(
                "block",
                _shape(self.block),
                "squeezed (None) dimensions count as 1" if any(self.squeezed) else "",
            ),
            Row(
                "covering grid",
                f"{_shape(self.grid_needed)} = {format_count(math.prod(self.grid_needed))} steps",
                ", ".join(f"cdiv({a.size}, {a.block}) = {a.needed}" for a in self.axes),
            ),
        ]
        if self.index_map == "blocked":
            source = "given" if self.grid_given else "the covering grid (none given)"
        elif self.index_map == "constant":
            source = "given; the constant index map uses block 0 at every step" if self.grid_given else "none given"
        else:
            source = "given"
        rows.append(Row("grid", f"{_shape(self.grid)} = {format_count(self.steps)} steps", source, key=True))
        if self.index_map_text:
            rows.append(
                Row("index map", self.index_map_text, "block index per array axis; element start = index · block")
            )
            rows.extend(self._visit_rows())
        if self.index_map != "constant":
            for axis in self.axes:
                if axis.padded:
                    unvisited = ""
                    if not axis.last_visited:
                        taken = f"grid {axis.grid} < {axis.needed}" if self.index_map == "blocked" else "never taken"
                        unvisited = f" (not visited: {taken})"
                    rows.append(
                        Row(
                            f"axis {axis.axis} last block",
                            f"{axis.last_start}-{axis.last_end}: {axis.size - axis.last_start} real, "
                            f"{axis.padded} padded{unvisited}",
                            f"{axis.needed} · {axis.block} - {axis.size} = {axis.padded}",
                            key=True,
                        )
                    )
        waste = self.padded_elements / self.processed_elements if self.processed_elements else 0.0
        rows.append(
            Row(
                "padding",
                f"{format_count(self.padded_elements)} of {format_count(self.processed_elements)} elements "
                f"addressed ({waste:.1%})",
                "elements the visited blocks address beyond the array",
            )
        )
        covered = " · ".join(str(a.covered) for a in self.axes)
        rows.append(
            Row(
                "never visited",
                format_count(self.uncovered_elements),
                f"{format_count(math.prod(self.array))} - {covered}",
                key=self.uncovered_elements > 0,
            )
        )
        if self.past_end_steps:
            rows.append(Row("steps past the end", format_count(self.past_end_steps), "block index ≥ covering grid"))
        rows.append(
            Row(
                "TPU block-shape rule",
                "fails" if self.tiling_problems else "passes",
                "; ".join(self.tiling_checks),
            )
        )
        rows.extend(Row("TPU block-shape problem", problem, key=True) for problem in self.tiling_problems)
        bits = _vmem_bits(dtypes.lookup(self.dtype))
        rows.append(
            Row(
                "VMEM block",
                f"{_shape(self.ref_shape)} → {_shape(self.vmem_shape)}",
                f"padded to the memory tile {_shape(self.vmem_tile)} for {bits}-bit elements on {self.tpu}",
            )
        )
        rows.append(
            Row(
                "block bytes",
                format_bytes_exact(self.padded_block_bytes),
                f"{' · '.join(str(d) for d in self.vmem_shape)} · {bits / 8:g} B "
                f"(unpadded {format_count(self.block_bytes)} B)",
            )
        )
        rows.append(
            Row(
                "buffers",
                str(self.buffers),
                "trivial window (block = array, constant index map): one buffer"
                if self.trivial_window
                else ("double buffering" if self.buffers == 2 else "single buffering"),
            )
        )
        rows.append(
            Row(
                "VMEM",
                format_bytes_exact(self.vmem_bytes),
                f"{self.buffers} · {format_count(self.padded_block_bytes)} B",
                key=not self.other_buffers,
            )
        )
        for other in self.other_buffers:
            rows.append(
                Row(
                    f"VMEM {other.name}",
                    format_bytes_exact(other.bytes),
                    f"{other.count} · {_shape(other.shape)} → {_shape(other.vmem_shape)} {other.dtype} "
                    f"= {other.count} · {format_count(other.padded_bytes)} B",
                )
            )
        if self.other_buffers:
            terms = " + ".join(format_count(b) for b in (self.vmem_bytes, *(o.bytes for o in self.other_buffers)))
            rows.append(Row("VMEM total", format_bytes_exact(self.total_vmem_bytes), f"{terms} B", key=True))
        tpu = TPUS[self.tpu]
        if self.vmem_limit_given:
            rows.append(Row("VMEM limit", format_bytes(self.vmem_limit_bytes), GIVEN_LIMIT_LABEL))
        rows.append(
            Row(
                "scoped VMEM limit",
                format_bytes(self.scoped_limit_bytes),
                f"{SCOPED_LIMIT_LABEL}; {tpu.scoped_limit_source}",
                key=True,
            )
        )
        rows.append(Row("VMEM capacity", format_bytes(self.vmem_capacity_bytes), _VMEM_SOURCE))
        return tuple(rows)

    def _visit_rows(self) -> list[Row]:
        rows = []
        for axis in self.axes:
            taken = f"block {axis.low}" if axis.low == axis.high else f"{axis.low}-{axis.high}"
            count = f" ({axis.grid} distinct)" if axis.exact and not axis.constant else ""
            extremes = "" if axis.exact else "; grid too large to enumerate: extremes only"
            beyond = f"; past the last block {axis.needed - 1}" if axis.past_end else ""
            rows.append(
                Row(
                    f"axis {axis.axis} block indices",
                    f"{taken}{count}",
                    f"of {axis.needed} blocks (0-{axis.needed - 1}){beyond}{extremes}",
                )
            )
        return rows


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _vmem_bits(dtype: dtypes.DType) -> int:
    # Mosaic keeps bool blocks as int32 memrefs (BOOL_MEMREF_TYPE in the Pallas TPU lowering).
    return 32 if dtype.kind == "bool" else dtype.bits


def _tiling(block: tuple[int, ...], array: tuple[int, ...], dtype: dtypes.DType) -> tuple[list[str], list[str]]:
    """The Pallas TPU block-shape rule: (checks with numbers, problems)."""
    checks: list[str] = []
    problems: list[str] = []
    bits = _vmem_bits(dtype)
    if bits > 32:
        problems.append(f"{dtype.short} has {bits}-bit elements; Mosaic lays out at most 32-bit ones")
    if len(block) >= 2:
        for position, multiple, name in ((-1, LANES, "last"), (-2, SUBLANES, "second-to-last")):
            b, a = block[position], array[position]
            ok = b == a or b % multiple == 0
            checks.append(f"{name} {b}: == {a} or % {multiple} == 0 {'✓' if ok else '✗'}")
            if not ok:
                problems.append(
                    f"the {name} block dimension {b} is neither the array's {a} nor a multiple of {multiple} "
                    f"({b} % {multiple} = {b % multiple})"
                )
        return checks, problems
    (b,), (a,) = block, array
    chunk = SUBLANES * LANES
    smallest = LANES * (32 // min(bits, 32))
    power = b >= smallest and b & (b - 1) == 0
    ok = b == a or b % chunk == 0 or power
    mark = "✓" if ok else "✗"
    checks.append(f"rank 1, {b}: == {a} or % {chunk} == 0 or a power of 2 ≥ 128 · (32 // {bits}) = {smallest} {mark}")
    if not ok:
        problems.append(
            f"the rank-1 block {b} is not the array's {a}, not a multiple of {chunk}, and not a power of 2 ≥ {smallest}"
        )
    return checks, problems


def _tile_rows(rows: int, bits: int, generation: int) -> int:
    """Mosaic's second-minor tiling (``getTilingFactor``) for a dimension of ``rows``.

    Blocks with at least a full "large" tile of rows get it; smaller ones get the smallest power of
    two from the packing up to 8 that covers them. Before 7x, XLA enables the large tiling only for
    8- and 4-bit types (``tpu_info.get_sublane_tiling``), so 16-bit blocks keep 8-row tiles there.
    """
    packing = max(1, 32 // bits)
    large = SUBLANES * packing if generation >= 7 or bits < 16 else SUBLANES
    if rows >= large:
        return large
    tiling = packing
    while tiling < min(rows, SUBLANES):
        tiling *= 2
    return tiling


def _vmem_layout(ref: tuple[int, ...], bits: int, generation: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ref padded to its memory tile, and the tile."""
    if len(ref) == 1:
        tile = _tile_rows(_cdiv(ref[0], LANES), bits, generation) * LANES
        return (_cdiv(ref[0], tile) * tile,), (tile,)
    rows = _tile_rows(ref[-2], bits, generation)
    padded = (*ref[:-2], _cdiv(ref[-2], rows) * rows, _cdiv(ref[-1], LANES) * LANES)
    return padded, (rows, LANES)


def compute_blockspec(inputs: BlockSpecInputs) -> BlockSpecResult:
    """Grid, padding, coverage, TPU block-shape verdict and VMEM for one BlockSpec.

    Args:
        inputs: The array, block, grid, index map, TPU generation and buffer count.

    Returns:
        Every intermediate number of the block arithmetic.

    Examples:
        >>> result = compute_blockspec(BlockSpecInputs((1000, 128), "f32", (192, 128)))
        >>> result.grid, result.axes[0].padded, result.vmem_bytes
        ((6, 1), 152, 196608)
        >>> print(result.headline)  # doctest: +NORMALIZE_WHITESPACE
        grid (6, 1) = 6 steps; last block on axis 0 spans 960-1151: 40 real, 152 padded;
        VMEM 192.0 KiB of 16.0 MiB scoped limit (observed default, configurable via vmem_limit_bytes;
        128.0 MiB capacity on v5e)
        >>> print(compute_blockspec(BlockSpecInputs((250, 512), "f32", (100, 256))).tiling_problems[0])
        the second-to-last block dimension 100 is neither the array's 250 nor a multiple of 8 (100 % 8 = 4)
    """
    dtype = dtypes.lookup(inputs.dtype)
    tpu = TPUS[inputs.tpu]
    block = tuple(1 if size is None else size for size in inputs.block)
    squeezed = tuple(size is None for size in inputs.block)
    needed = tuple(_cdiv(a, b) for a, b in zip(inputs.array, block, strict=True))
    blocked = inputs.index_map == "blocked"
    lambda_map = inputs.index_map not in ("blocked", "constant")
    grid = inputs.grid if inputs.grid is not None else (needed if blocked else ())
    if lambda_map:
        axes, past_end = _lambda_axes(inputs, block, needed, grid)
        trivial = parse_index_map(inputs.index_map).all_zero() and block == inputs.array
    else:
        per_axis_grid = grid if blocked else (1,) * len(block)
        axes = tuple(
            AxisBlocks(
                axis=index,
                size=a,
                block=b,
                needed=n,
                grid=g,
                last_start=(n - 1) * b,
                last_end=n * b - 1,
                padded=n * b - a,
                covered=min(g * b, a),
                high=g - 1 if blocked else 0,
                constant=not blocked,
                last_visited=g >= n if blocked else n == 1,
                in_range=min(g, n),
            )
            for index, (a, b, n, g) in enumerate(zip(inputs.array, block, needed, per_axis_grid, strict=True))
        )
        past_end = math.prod(grid) - math.prod(min(axis.grid, axis.needed) for axis in axes) if blocked else 0
        trivial = not blocked and block == inputs.array
    steps = math.prod(grid)
    visited = math.prod(axis.in_range * axis.block for axis in axes)
    covered = math.prod(axis.covered for axis in axes)
    checks, problems = _tiling(block, inputs.array, dtype)
    bits = _vmem_bits(dtype)
    ref = tuple(b for b, s in zip(block, squeezed, strict=True) if not s) or (1,)
    vmem_shape, tile = _vmem_layout(ref, bits, tpu.generation)
    buffers = 1 if trivial else inputs.buffers
    padded_block_bytes = -(-math.prod(vmem_shape) * bits // 8)
    others = tuple(buffer_bytes(other, tpu) for other in inputs.other_buffers)
    vmem_bytes = buffers * padded_block_bytes
    return BlockSpecResult(
        array=inputs.array,
        dtype=dtype.short,
        block=block,
        squeezed=squeezed,
        index_map="lambda" if lambda_map else inputs.index_map,
        grid_needed=needed,
        grid=grid,
        grid_given=inputs.grid is not None,
        steps=steps,
        axes=axes,
        processed_elements=visited,
        padded_elements=visited - covered,
        uncovered_elements=math.prod(inputs.array) - covered,
        past_end_steps=past_end,
        tiling_problems=tuple(problems),
        tiling_checks=tuple(checks),
        ref_shape=ref,
        vmem_shape=vmem_shape,
        vmem_tile=tile,
        block_bytes=dtype.nbytes(math.prod(ref)),
        padded_block_bytes=padded_block_bytes,
        trivial_window=trivial,
        buffers=buffers,
        vmem_bytes=vmem_bytes,
        tpu=tpu.name,
        vmem_capacity_bytes=tpu.vmem_bytes,
        scoped_limit_bytes=tpu.scoped_limit_bytes,
        index_map_text=inputs.index_map if lambda_map else "",
        other_buffers=others,
        total_vmem_bytes=vmem_bytes + sum(other.bytes for other in others),
        vmem_limit_bytes=inputs.vmem_limit if inputs.vmem_limit is not None else tpu.scoped_limit_bytes,
        vmem_limit_given=inputs.vmem_limit is not None,
    )


def _lambda_axes(
    inputs: BlockSpecInputs, block: tuple[int, ...], needed: tuple[int, ...], grid: tuple[int, ...]
) -> tuple[tuple[AxisBlocks, ...], int | None]:
    """Per-axis blocks for a lambda index map, and the steps whose block lies past the end."""
    visits = _visits(inputs.index_map, grid, needed)
    axes = []
    for index, (a, b, n, dim) in enumerate(zip(inputs.array, block, needed, visits.dims, strict=True)):
        if dim.values is not None:
            inside = sorted(k for k in dim.values if 0 <= k < n)
            taken = len(dim.values)
        else:
            # Only the extremes are known: assume every index between them is taken.
            inside = list(range(max(dim.low, 0), min(dim.high, n - 1) + 1))
            taken = dim.high - dim.low + 1
        axes.append(
            AxisBlocks(
                axis=index,
                size=a,
                block=b,
                needed=n,
                grid=taken,
                last_start=(n - 1) * b,
                last_end=n * b - 1,
                padded=n * b - a,
                covered=sum(min(b, a - k * b) for k in inside),
                low=dim.low,
                high=dim.high,
                exact=dim.exact,
                constant=not dim.axes,
                last_visited=(n - 1) in inside,
                in_range=len(inside),
            )
        )
    past_end = None if visits.in_range_steps is None else math.prod(grid) - visits.in_range_steps
    return tuple(axes), past_end


def buffer_bytes(other: OtherBuffer, tpu: TpuGeneration) -> BufferBytes:
    """VMEM bytes of one buffer on ``tpu``: its shape padded to the memory tile, times its copies.

    Examples:
        >>> buffer_bytes(OtherBuffer("acc", 1, (500, 100), "f32"), TPUS["v5e"]).bytes  # (504, 128) · 4 B
        258048
    """
    bits = _vmem_bits(dtypes.lookup(other.dtype))
    vmem_shape, _ = _vmem_layout(other.shape, bits, tpu.generation)
    padded = -(-math.prod(vmem_shape) * bits // 8)
    return BufferBytes(other.name, other.count, other.shape, vmem_shape, other.dtype, padded, other.count * padded)


PICTURE_LINES = 32
"""Block boundaries drawn per axis; beyond that the grid is shown without its inner lines."""


def draw_blocks(result: BlockSpecResult) -> Picture:
    """The block grid laid over the array's last two axes: padding past the end shaded red, elements
    no visited block reaches grey, and block 0 outlined.

    Examples:
        >>> inputs = BlockSpecInputs((1000, 512), "f32", (192, 128))
        >>> print(draw_blocks(compute_blockspec(inputs)).text)  # doctest: +NORMALIZE_WHITESPACE
        The array (1000, 512) cut into 6 x 4 blocks of (192, 128) (rows down, columns across), visited over
        24 grid steps: 152 padded rows past the end in the last block row; no uncovered rows or columns.
    """
    axes = result.axes[-2:] if len(result.axes) >= 2 else (None, *result.axes[-1:])
    rows_axis, cols_axis = axes
    rows = (rows_axis.size, rows_axis.block, rows_axis.needed, rows_axis.covered) if rows_axis else (1, 1, 1, 1)
    cols = (cols_axis.size, cols_axis.block, cols_axis.needed, cols_axis.covered) if cols_axis else (1, 1, 1, 1)
    extent_rows, extent_cols = rows[1] * rows[2], cols[1] * cols[2]
    scale = min(300 / extent_cols, 200 / extent_rows)

    def at(elements: int) -> float:
        """Where ``elements`` from the array's corner lands in the picture."""
        return 4 + elements * scale

    width, height = max(extent_cols * scale, 40), max(extent_rows * scale, 12)
    body = [rect(4, 4, width, height, "#ffffff")]
    body.append(rect(4, 4, cols[0] * scale, rows[0] * scale, COLOURS[0]))
    if cols[0] < extent_cols:
        body.append(rect(at(cols[0]), 4, (extent_cols - cols[0]) * scale, height, PADDING_FILL))
    if rows[0] < extent_rows:
        body.append(rect(4, at(rows[0]), width, (extent_rows - rows[0]) * scale, PADDING_FILL))
    if cols[3] < cols[0]:
        body.append(rect(at(cols[3]), 4, (cols[0] - cols[3]) * scale, rows[0] * scale, "#cccccc"))
    if rows[3] < rows[0]:
        body.append(rect(4, at(rows[3]), cols[0] * scale, (rows[0] - rows[3]) * scale, "#cccccc"))
    if rows[2] <= PICTURE_LINES:
        body += [
            f'<line x1="4" y1="{at(k * rows[1]):g}" x2="{4 + width:g}" y2="{at(k * rows[1]):g}" stroke="{LINE}"/>'
            for k in range(1, rows[2])
        ]
    if cols[2] <= PICTURE_LINES:
        body += [
            f'<line x1="{at(k * cols[1]):g}" y1="4" x2="{at(k * cols[1]):g}" y2="{4 + height:g}" stroke="{LINE}"/>'
            for k in range(1, cols[2])
        ]
    body.append(rect(4, 4, cols[1] * scale, rows[1] * scale, "none", stroke="#2457c5", stroke_width=2))
    blocks = " x ".join(str(axis.needed) for axis in axes if axis is not None)
    block = tuple(axis.block for axis in axes if axis is not None)
    shape = tuple(axis.size for axis in axes if axis is not None)
    parts = []
    if rows_axis is not None and rows_axis.padded and rows_axis.last_visited:
        parts.append(f"{rows_axis.padded} padded rows past the end in the last block row")
    if cols_axis is not None and cols_axis.padded and cols_axis.last_visited:
        parts.append(f"{cols_axis.padded} padded columns past the end in the last block column")
    uncovered = [
        f"{axis.size - axis.covered} {name} no block reaches"
        for axis, name in ((rows_axis, "rows"), (cols_axis, "columns"))
        if axis is not None and axis.covered < axis.size
    ]
    parts.append("; ".join(uncovered) if uncovered else "no uncovered rows or columns")
    where = "rows down, columns across" if rows_axis is not None else "one row"
    leading = f" (the last two of {len(result.axes)} axes)" if len(result.axes) > 2 else ""
    text = (
        f"The array {_shape(shape)}{leading} cut into {blocks} blocks of {_shape(block)} ({where}), "
        f"visited over {result.steps} grid step{'' if result.steps == 1 else 's'}: " + "; ".join(parts) + "."
    )
    return svg(width + 8, height + 8, body, text)


CALCULATOR = register_calculator(
    Calculator(
        name="blockspec",
        title="Pallas BlockSpec calculator",
        summary="Grid steps, last-block padding, uncovered elements, the TPU block-shape rule and VMEM bytes "
        "for one pallas_call operand.",
        explainer="pallas-blockspec#block-arithmetic",
        inputs=BlockSpecInputs,
        fields=(
            Field(
                "array", "ints", "Array shape", "The operand's shape, e.g. 1000,512.", minimum=1, placeholder="1000,512"
            ),
            Field(
                "dtype", "choice", "dtype", "Element type of the operand.", default="f32", choices=dtypes.DTYPE_CHOICES
            ),
            Field(
                "block",
                "text",
                "Block shape",
                "One size per array dimension; None squeezes a dimension (size 1, dropped from the ref).",
                parser=parse_block,
                formatter=format_block,
                placeholder="128,128",
            ),
            Field(
                "grid",
                "ints",
                "Grid",
                "The pallas_call grid; empty for the grid that covers the array (cdiv of array by block).",
                default="",
                minimum=1,
                optional=True,
                placeholder="8,4",
            ),
            Field(
                "index-map",
                "text",
                "Index map",
                "blocked: grid axis i picks the block along array axis i (lambda i, j: (i, j)); "
                "constant: every step uses block 0; or the map itself, e.g. lambda i, j, k: (i, k), "
                "using + - * // %, min and max.",
                default="blocked",
                parser=read_index_map,
                placeholder="lambda i, j: (i, 0)",
            ),
            Field("tpu", "choice", "TPU", "TPU generation for the VMEM figures.", default="v5e", choices=tuple(TPUS)),
            Field(
                "buffers",
                "int",
                "Buffers",
                "VMEM copies per block: 2 is the default double buffering, 1 is pl.Buffered(1).",
                default="2",
                minimum=1,
            ),
            Field(
                "other-buffers",
                "text",
                "Other VMEM buffers",
                "The kernel's other operands' blocks and its scratch, as name=COUNTxSHAPE DTYPE separated by ; "
                "(e.g. w=2x1024,1024 bf16; acc=1x512,1024 f32), so the VMEM total covers the whole kernel.",
                default="",
                parser=parse_other_buffers,
                formatter=format_other_buffers,
                placeholder="w=2x1024,1024 bf16; acc=1x512,1024 f32",
                multiline=True,
            ),
            Field(
                "vmem-limit",
                "int",
                "vmem_limit_bytes",
                "The kernel's compiler_params vmem_limit_bytes; empty for the generation's default scoped limit.",
                default="",
                minimum=1,
                optional=True,
                placeholder="33554432",
            ),
        ),
        compute=compute_blockspec,
        picture=draw_blocks,
        examples=(
            {"array": "1000,512", "dtype": "f32", "block": "192,128"},
            {"array": "4096,4096", "dtype": "bf16", "block": "512,1024", "tpu": "v5e"},
            {"array": "250,512", "dtype": "f32", "block": "100,256"},
            {"array": "1000,128", "dtype": "f32", "block": "192,128", "grid": "4,1"},
            {"array": "8,1024,1024", "dtype": "bf16", "block": "None,1024,1024", "index-map": "constant"},
            {
                "array": "4096,4096",
                "dtype": "bf16",
                "block": "512,1024",
                "grid": "8,4,4",
                "index-map": "lambda i, j, k: (i, k)",
                "other-buffers": "y=2x1024,1024 bf16; out=2x512,1024 bf16; acc=1x512,1024 f32",
            },
            {"array": "512,128", "block": "128,128", "grid": "4", "index-map": "lambda i: (i * 128, 0)"},
        ),
    )
)
