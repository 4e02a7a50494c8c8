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
the array.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.limits import check_shape
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.units import format_bytes, format_bytes_exact, format_count

LANES = 128
SUBLANES = 8
MiB = 2**20

SCOPED_LIMIT_LABEL = "observed default, configurable via vmem_limit_bytes"


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


@dataclass(frozen=True)
class BlockSpecInputs:
    """One operand of a ``pallas_call``: its array, its BlockSpec and the grid.

    Attributes:
        array: The operand's shape.
        dtype: Its element type (any spelling; stored as the short name).
        block: Block sizes; ``None`` is a squeezed dimension of size 1.
        grid: The grid, or ``None`` for the grid that covers the array.
        index_map: ``blocked`` (grid axis i gives the block index along array axis i) or ``constant``
            (every step uses block 0).
        tpu: The TPU generation for the VMEM figures.
        buffers: VMEM copies per block: 2 (the default double buffering) or 1.

    Raises:
        CalculatorInputError: naming the field for a rank mismatch, sizes below 1, a blocked grid
            whose length is not the array's rank, absurd sizes, or a buffer count other than 1 or 2.
    """

    array: tuple[int, ...]
    dtype: str
    block: tuple[int | None, ...]
    grid: tuple[int, ...] | None = None
    index_map: str = "blocked"
    tpu: str = "v5e"
    buffers: int = 2

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
        if self.index_map not in ("blocked", "constant"):
            raise CalculatorInputError("index-map", f"{self.index_map!r} is not blocked or constant")
        if self.grid is not None:
            if self.grid:
                check_shape("grid", self.grid, minimum=1)
            if self.index_map == "blocked" and len(self.grid) != len(self.array):
                raise CalculatorInputError(
                    "grid",
                    f"has {len(self.grid)} axes but the blocked index map needs one per array dimension "
                    f"({len(self.array)}); leave it empty for the grid that covers the array",
                )
        if self.tpu not in TPUS:
            raise CalculatorInputError("tpu", f"{self.tpu!r} is not one of {', '.join(TPUS)}")
        if self.buffers not in (1, 2):
            raise CalculatorInputError(
                "buffers", f"Only single (1) and double (2) buffering are supported. Got {self.buffers}."
            )


@dataclass(frozen=True)
class AxisBlocks:
    """The blocks along one array axis.

    Attributes:
        axis: The array axis.
        size: The array's size along it.
        block: The block size (1 for a squeezed dimension).
        needed: ``cdiv(size, block)``, the grid that covers the axis.
        grid: The grid size used along it (blocked index map) or 1 (constant index map).
        last_start: First element of the last covering block, ``(needed - 1) · block``.
        last_end: Last element it addresses, ``needed · block - 1``.
        padded: Elements of the last block past the end, ``needed · block - size``.
        covered: Elements the visited blocks reach, ``min(grid · block, size)``.
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
        past_end_steps: Steps whose block lies entirely past the end on some axis.
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
    past_end_steps: int
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

    @property
    def grid_mismatch(self) -> bool:
        """A given blocked grid that differs from the covering one."""
        return self.index_map == "blocked" and self.grid != self.grid_needed

    @property
    def status(self) -> Status:
        """``error`` for a rejected block shape or VMEM over capacity; ``warning`` for padding,
        uncovered elements, a grid other than the covering one, or VMEM over the scoped limit."""
        if self.tiling_problems or self.vmem_bytes > self.vmem_capacity_bytes:
            return "error"
        if (
            self.padded_elements
            or self.uncovered_elements
            or self.grid_mismatch
            or self.vmem_bytes > self.scoped_limit_bytes
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
        if self.index_map == "blocked":
            for axis in self.axes:
                if axis.padded and axis.grid >= axis.needed:
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
        parts.append(
            f"VMEM {format_bytes(self.vmem_bytes)} of {format_bytes(self.scoped_limit_bytes)} scoped limit "
            f"({SCOPED_LIMIT_LABEL}; {format_bytes(self.vmem_capacity_bytes)} capacity on {self.tpu})"
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
        else:
            source = "given; the constant index map uses block 0 at every step" if self.grid_given else "none given"
        rows.append(Row("grid", f"{_shape(self.grid)} = {format_count(self.steps)} steps", source))
        if self.index_map == "blocked":
            for axis in self.axes:
                if axis.padded:
                    unvisited = f" (not visited: grid {axis.grid} < {axis.needed})" if axis.grid < axis.needed else ""
                    rows.append(
                        Row(
                            f"axis {axis.axis} last block",
                            f"{axis.last_start}-{axis.last_end}: {axis.size - axis.last_start} real, "
                            f"{axis.padded} padded{unvisited}",
                            f"{axis.needed} · {axis.block} - {axis.size} = {axis.padded}",
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
        rows.extend(Row("TPU block-shape problem", problem) for problem in self.tiling_problems)
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
            )
        )
        tpu = TPUS[self.tpu]
        rows.append(
            Row(
                "scoped VMEM limit",
                format_bytes(self.scoped_limit_bytes),
                f"{SCOPED_LIMIT_LABEL}; {tpu.scoped_limit_source}",
            )
        )
        rows.append(Row("VMEM capacity", format_bytes(self.vmem_capacity_bytes), _VMEM_SOURCE))
        return tuple(rows)


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
    grid = inputs.grid if inputs.grid is not None else (needed if blocked else ())
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
        )
        for index, (a, b, n, g) in enumerate(zip(inputs.array, block, needed, per_axis_grid, strict=True))
    )
    steps = math.prod(grid)
    visited = math.prod(min(axis.grid, axis.needed) * axis.block for axis in axes)
    covered = math.prod(axis.covered for axis in axes)
    past_end = steps - math.prod(min(axis.grid, axis.needed) for axis in axes) if blocked else 0
    checks, problems = _tiling(block, inputs.array, dtype)
    bits = _vmem_bits(dtype)
    ref = tuple(b for b, s in zip(block, squeezed, strict=True) if not s) or (1,)
    vmem_shape, tile = _vmem_layout(ref, bits, tpu.generation)
    trivial = not blocked and block == inputs.array
    buffers = 1 if trivial else inputs.buffers
    padded_block_bytes = -(-math.prod(vmem_shape) * bits // 8)
    return BlockSpecResult(
        array=inputs.array,
        dtype=dtype.short,
        block=block,
        squeezed=squeezed,
        index_map=inputs.index_map,
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
        vmem_bytes=buffers * padded_block_bytes,
        tpu=tpu.name,
        vmem_capacity_bytes=tpu.vmem_bytes,
        scoped_limit_bytes=tpu.scoped_limit_bytes,
    )


CALCULATOR = register_calculator(
    Calculator(
        name="blockspec",
        title="Pallas BlockSpec calculator",
        summary="Grid steps, last-block padding, uncovered elements, the TPU block-shape rule and VMEM bytes "
        "for one pallas_call operand.",
        explainer=None,
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
                "choice",
                "Index map",
                "blocked: grid axis i picks the block along array axis i (lambda i, j: (i, j)); "
                "constant: every step uses block 0 (lambda i, j: (0, 0)).",
                default="blocked",
                choices=("blocked", "constant"),
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
        ),
        compute=compute_blockspec,
        examples=(
            {"array": "1000,512", "dtype": "f32", "block": "192,128"},
            {"array": "4096,4096", "dtype": "bf16", "block": "512,1024", "tpu": "v5e"},
            {"array": "250,512", "dtype": "f32", "block": "100,256"},
            {"array": "1000,128", "dtype": "f32", "block": "192,128", "grid": "4,1"},
            {"array": "8,1024,1024", "dtype": "bf16", "block": "None,1024,1024", "index-map": "constant"},
        ),
    )
)
