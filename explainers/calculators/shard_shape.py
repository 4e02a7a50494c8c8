"""Shard-shape calculator: what each device holds for a ``NamedSharding(mesh, PartitionSpec)``.

Each entry of a ``PartitionSpec`` belongs to one array dimension and names the mesh axes that
split it (``None`` for none, a tuple for several). Dimension ``d`` is cut into the product of
those axes' sizes; mesh axes the spec never names hold copies (replication). JAX requires every
cut to be even at ``jax.device_put`` and at ``jax.jit`` boundaries, names each mesh axis at most
once per spec, and allows a spec shorter than the array's rank but never longer.

With ``framework`` set to ``torch_xla`` the same inputs describe ``xs.mark_sharding(t, mesh,
partition_spec)`` under torch_xla SPMD instead: the spec must have exactly one entry per dimension,
the mesh must use every device, and an uneven cut is accepted. Each device then holds
``ceil(size / k)`` entries of a dimension cut ``k`` ways; the devices at the end of that dimension
hold fewer real entries (possibly none) and the rest is padding.

Text syntax: ``mesh`` is ``x:4,y:2`` (axis name and size, in mesh order); ``spec`` is one entry
per array dimension separated by commas: ``x,None``, ``(x,y),None``, ``None,y``; empty text is
``P()``. ``P('x', None)`` as written in code is accepted too.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.limits import check_shape
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.svg import COLOURS, Picture, label, rect, svg
from xlalens.explainers.calculators.units import format_bytes, format_bytes_exact, format_count

SLICE_MAP_MAX_DEVICES = 16
"""Meshes up to this many devices get a row per device with the slice it holds."""

MAX_DEVICES = 2**20
"""Far above any real slice or pod; larger meshes are typos."""

SpecEntry = str | tuple[str, ...] | None

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

FRAMEWORKS = ("jax", "torch_xla")
"""Whose rules the calculator applies: JAX's ``NamedSharding`` or torch_xla's ``mark_sharding``."""


def parse_mesh(text: str) -> tuple[tuple[str, int], ...]:
    """Read ``x:4,y:2`` (``=`` works too) into ``(("x", 4), ("y", 2))``.

    Raises:
        ValueError: for text that is not name:size pairs.

    Examples:
        >>> parse_mesh("data:4, model=2")
        (('data', 4), ('model', 2))
        >>> parse_mesh("x:4,y")
        Traceback (most recent call last):
        ...
        ValueError: expected name:size such as x:4; got 'y'
    """
    body = text.strip().strip("{}()")
    if not body:
        raise ValueError("is empty; write axis names and sizes such as x:4,y:2")
    axes: list[tuple[str, int]] = []
    for part in body.split(","):
        match = re.fullmatch(r"\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)['\"]?\s*[:=]\s*([0-9_]+)\s*", part)
        if not match:
            raise ValueError(f"expected name:size such as x:4; got {part.strip()!r}")
        digits = match.group(2).replace("_", "")
        if len(digits) > 20:
            raise ValueError(f"axis {match.group(1)} has an absurd size {digits[:24]}…")
        axes.append((match.group(1), int(digits)))
    return tuple(axes)


def format_mesh(mesh: tuple[tuple[str, int], ...]) -> str:
    """Mesh axes back as text.

    Examples:
        >>> format_mesh((("x", 4), ("y", 2)))
        'x:4,y:2'
    """
    return ",".join(f"{name}:{size}" for name, size in mesh)


def parse_spec(text: str) -> tuple[SpecEntry, ...]:
    """Read a PartitionSpec written as ``x,None``, ``(x,y),None``, ``P('x', None)`` or empty for ``P()``.

    Raises:
        ValueError: for entries that are not ``None``, an axis name or a tuple of axis names.

    Examples:
        >>> parse_spec("(x,y), None")
        (('x', 'y'), None)
        >>> parse_spec("P('x',)")
        ('x',)
        >>> parse_spec("")
        ()
        >>> parse_spec("x,,y")
        Traceback (most recent call last):
        ...
        ValueError: entry 1 is empty; write None for an unsplit dimension
    """
    body = text.strip()
    if re.fullmatch(r"(?:jax\.sharding\.)?(?:P|PartitionSpec)\(.*\)", body, flags=re.DOTALL):
        body = body[body.index("(") + 1 : -1].strip()
    if not body:
        return ()
    parts = _split_entries(body)
    if parts and not parts[-1].strip() and len(parts) > 1:
        parts.pop()  # the trailing comma of a one-entry tuple, P('x',)
    return tuple(_parse_entry(part.strip(), index) for index, part in enumerate(parts))


def _split_entries(body: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    current = ""
    for char in body:
        if char == "(":
            depth += 1
            if depth > 1:
                raise ValueError("mesh-axis tuples cannot nest: write (x,y), not ((x,y),z)")
        elif char == ")":
            depth -= 1
            if depth < 0:
                raise ValueError("a ')' has no matching '('")
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    if depth:
        raise ValueError("a '(' has no matching ')'")
    parts.append(current)
    return parts


def _parse_entry(part: str, index: int) -> SpecEntry:
    if not part:
        raise ValueError(f"entry {index} is empty; write None for an unsplit dimension")
    if part == "None":
        return None
    if part.startswith("(") and part.endswith(")"):
        names = [name.strip() for name in part[1:-1].split(",")]
        if names and not names[-1]:
            names.pop()
        return tuple(_axis_name(name, index) for name in names)
    return _axis_name(part, index)


def _axis_name(text: str, index: int) -> str:
    name = text.strip().strip("'\"")
    if not _NAME.fullmatch(name) or name == "None":
        raise ValueError(f"entry {index}: {text!r} is not None, a mesh axis name or a tuple of names")
    return name


def format_spec(spec: tuple[SpecEntry, ...]) -> str:
    """A spec back as text.

    Examples:
        >>> format_spec((("x", "y"), None))
        '(x,y),None'
    """
    return ",".join(_format_entry(entry) for entry in spec)


def _format_entry(entry: SpecEntry | list[str]) -> str:
    if entry is None:
        return "None"
    if isinstance(entry, tuple | list):  # a list once the inputs went through JSON
        return "(" + ",".join(entry) + ("," if len(entry) == 1 else "") + ")"
    return entry


def spec_repr(spec: tuple[SpecEntry, ...]) -> str:
    """The spec as JAX prints it.

    Examples:
        >>> spec_repr(("x",)), spec_repr((("x", "y"), None)), spec_repr(())
        ("P('x',)", "P(('x', 'y'), None)", 'P()')
    """
    inner = ", ".join(repr(entry) for entry in spec)
    return f"P({inner}{',' if len(spec) == 1 else ''})"


def _axes(entry: SpecEntry) -> tuple[str, ...]:
    if entry is None:
        return ()
    return entry if isinstance(entry, tuple) else (entry,)


@dataclass(frozen=True)
class ShardShapeInputs:
    """An array, a mesh and a PartitionSpec.

    Attributes:
        mesh: Mesh axes in order, as (name, size) pairs.
        shape: The global array shape.
        dtype: The element type (any spelling; stored as the short name).
        spec: One entry per leading array dimension: ``None``, an axis name, or a tuple of names.
        devices: How many devices exist; ``None`` means exactly the mesh's.
        framework: ``jax`` (``NamedSharding``) or ``torch_xla`` (``xs.mark_sharding``).

    Raises:
        CalculatorInputError: naming ``mesh``, ``shape``, ``dtype``, ``devices`` or ``framework`` for
            sizes below 1 (0 for array dimensions), repeated mesh axis names, absurd sizes, or an
            unknown framework.
    """

    mesh: tuple[tuple[str, int], ...]
    shape: tuple[int, ...]
    dtype: str
    spec: tuple[SpecEntry, ...]
    devices: int | None = None
    framework: str = "jax"

    def __post_init__(self) -> None:
        if self.framework not in FRAMEWORKS:
            raise CalculatorInputError("framework", f"{self.framework!r} is not one of {', '.join(FRAMEWORKS)}")
        if not self.mesh:
            raise CalculatorInputError("mesh", "has no axes")
        if not all(isinstance(axis, tuple) and len(axis) == 2 and isinstance(axis[0], str) for axis in self.mesh):
            raise CalculatorInputError("mesh", "expected (name, size) pairs; use parse_mesh() on text")
        names = [name for name, _ in self.mesh]
        for name, size in self.mesh:
            if names.count(name) > 1:
                raise CalculatorInputError("mesh", f"axis name {name!r} appears {names.count(name)} times")
            if not isinstance(size, int) or size < 1:
                raise CalculatorInputError("mesh", f"axis {name!r} has size {size}; sizes are at least 1")
        mesh_size = math.prod(size for _, size in self.mesh)
        if mesh_size > MAX_DEVICES:
            raise CalculatorInputError(
                "mesh", f"the mesh has {format_count(mesh_size)} devices; the limit is {format_count(MAX_DEVICES)}"
            )
        check_shape("shape", self.shape, minimum=0)
        try:
            object.__setattr__(self, "dtype", dtypes.canonical(self.dtype))
        except ValueError as error:
            raise CalculatorInputError("dtype", str(error)) from None
        for entry in self.spec:
            axes = entry if isinstance(entry, tuple) else () if entry is None else (entry,)
            if not all(isinstance(axis, str) and _NAME.fullmatch(axis) for axis in axes):
                raise CalculatorInputError("spec", f"{entry!r} is not None, a mesh axis name or a tuple of names")
        if self.devices is not None and not (isinstance(self.devices, int) and 1 <= self.devices <= MAX_DEVICES):
            raise CalculatorInputError(
                "devices", f"{self.devices} devices; give between 1 and {format_count(MAX_DEVICES)}"
            )


@dataclass(frozen=True)
class DimSplit:
    """How one array dimension is cut.

    Attributes:
        axis: The array dimension.
        size: Its global size.
        mesh_axes: The mesh axes that split it, in spec order.
        factor: The product of their sizes (1 when unsplit).
        divisible: Whether ``size % factor == 0``.
    """

    axis: int
    size: int
    mesh_axes: tuple[str, ...]
    factor: int
    divisible: bool

    @property
    def padded_block(self) -> int:
        """Entries per device when an uneven cut is padded, as torch_xla does: ``ceil(size / factor)``.

        Examples:
            >>> DimSplit(0, 6, ("x",), 4, False).padded_block
            2
        """
        return -(-self.size // self.factor)

    @property
    def padding(self) -> int:
        """Padding entries over the whole padded dimension: ``padded_block · factor - size``.

        Examples:
            >>> DimSplit(0, 6, ("x",), 4, False).padding
            2
        """
        return self.padded_block * self.factor - self.size

    def real_entries(self, position: int) -> int:
        """Real (unpadded) entries held by the devices at ``position`` along this cut.

        Examples:
            >>> split = DimSplit(0, 5, ("x",), 4, False)
            >>> [split.real_entries(p) for p in range(4)]
            [2, 2, 1, 0]
        """
        block = self.padded_block
        return max(0, min(block, self.size - position * block))


@dataclass(frozen=True)
class ShardShapeResult:
    """Per-device shard shape, replication and bytes, or the errors JAX would raise.

    Attributes:
        mesh_shape: Mesh axis sizes in order.
        mesh_names: Mesh axis names in order.
        mesh_devices: Devices the mesh uses (the product of its sizes).
        devices: Devices available (the mesh size when not given).
        spec: The spec as JAX prints it.
        dims: One split per array dimension.
        shard_shape: The per-device block shape, or ``None`` when JAX rejects the sharding.
        used_axes: Mesh axes the spec names.
        replication: Copies of each shard: mesh devices / product of used axes' sizes.
        global_bytes: Bytes of the whole array.
        shard_bytes: Bytes each device holds, or ``None`` with ``shard_shape``.
        stored_bytes: Bytes over all mesh devices (shard bytes · mesh devices).
        errors: What JAX would reject, worded after its own messages.
        framework: ``jax`` or ``torch_xla``; with ``torch_xla`` uneven cuts are padded.
    """

    mesh_shape: tuple[int, ...]
    mesh_names: tuple[str, ...]
    mesh_devices: int
    devices: int
    dtype: str
    shape: tuple[int, ...]
    spec: str
    dims: tuple[DimSplit, ...]
    shard_shape: tuple[int, ...] | None
    used_axes: tuple[str, ...]
    replication: int
    global_bytes: int
    shard_bytes: int | None
    stored_bytes: int | None
    errors: tuple[str, ...]
    framework: str = "jax"

    @property
    def padded_dims(self) -> tuple[DimSplit, ...]:
        """The dimensions torch_xla pads (none under JAX, which rejects uneven cuts)."""
        if self.framework != "torch_xla":
            return ()
        return tuple(dim for dim in self.dims if not dim.divisible)

    def device_slices(self) -> tuple[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], ...] | None:
        """What each device holds: its mesh coordinates and the ``[start, stop)`` range of every array dimension.

        Devices are listed row-major over the mesh, the order of ``mesh.devices.flat``. A dimension
        split over several mesh axes is numbered row-major over those axes in the spec's order. Only
        for meshes of at most ``SLICE_MAP_MAX_DEVICES`` devices and shardings that are accepted;
        under torch_xla the last devices of a padded cut hold a short or empty range.

        Examples:
            >>> inputs = ShardShapeInputs((("x", 2), ("y", 2)), (4, 6), "f32", (("y", "x"), None))
            >>> [ranges for _, ranges in compute_shard_shape(inputs).device_slices()]
            [((0, 1), (0, 6)), ((2, 3), (0, 6)), ((1, 2), (0, 6)), ((3, 4), (0, 6))]
        """
        if self.shard_shape is None or self.mesh_devices > SLICE_MAP_MAX_DEVICES:
            return None
        sizes = dict(zip(self.mesh_names, self.mesh_shape, strict=True))
        found = []
        for coords in itertools.product(*(range(size) for size in self.mesh_shape)):
            position = dict(zip(self.mesh_names, coords, strict=True))
            ranges = []
            for dim, block in zip(self.dims, self.shard_shape, strict=False):
                index = 0
                for axis in dim.mesh_axes:
                    index = index * sizes[axis] + position[axis]
                start = min(index * block, dim.size)
                ranges.append((start, min(start + block, dim.size)))
            found.append((coords, tuple(ranges)))
        return tuple(found)

    @property
    def status(self) -> Status:
        """``error`` when JAX rejects the sharding, ``warning`` when devices are left out of the mesh."""
        if self.errors:
            return "error"
        return "warning" if self.devices > self.mesh_devices else "ok"

    @property
    def headline(self) -> str:
        """The shard shape and bytes per device, or the first error."""
        mesh = ", ".join(f"{name}={size}" for name, size in zip(self.mesh_names, self.mesh_shape, strict=True))
        if self.errors:
            more = f" (and {len(self.errors) - 1} more)" if len(self.errors) > 1 else ""
            return f"{self.spec} on mesh ({mesh}): {self.errors[0]}{more}"
        assert self.shard_shape is not None and self.shard_bytes is not None
        text = (
            f"{self.spec} on mesh ({mesh}): {dtypes.aval(self.dtype, self.shape)} → per-device shard "
            f"{dtypes.aval(self.dtype, self.shard_shape)} = {format_bytes(self.shard_bytes)} of "
            f"{format_bytes(self.global_bytes)}; {self.replication} cop{'y' if self.replication == 1 else 'ies'} "
            f"of each shard over {self.mesh_devices} devices"
        )
        if self.devices > self.mesh_devices:
            text += f"; {self.devices - self.mesh_devices} of {self.devices} devices are not in the mesh"
        for dim in self.padded_dims:
            text += f"; array axis {dim.axis} is padded by {dim.padding}"
        return text

    def rows(self) -> tuple[Row, ...]:
        """Mesh, per-dimension splits, shard shape, replication and bytes."""
        sizes = " · ".join(str(size) for size in self.mesh_shape)
        rows = [
            Row("mesh devices", format_count(self.mesh_devices), f"{sizes} = {self.mesh_devices}"),
            Row("devices available", format_count(self.devices)),
            Row("spec", self.spec, key=True),
        ]
        for dim in self.dims:
            if dim in self.padded_dims:
                over = " · ".join(_axis_text(self, a) for a in dim.mesh_axes)
                rows.append(
                    Row(
                        f"array axis {dim.axis}",
                        f"ceil({dim.size} / {dim.factor}) = {dim.padded_block} per device",
                        f"split over {over}; {_padding_text(dim)}",
                        key=True,
                    )
                )
            elif dim.mesh_axes:
                over = " · ".join(_axis_text(self, a) for a in dim.mesh_axes)
                quotient = f"{dim.size // dim.factor}" if dim.divisible else f"{dim.size / dim.factor:g} (not whole)"
                rows.append(
                    Row(
                        f"array axis {dim.axis}",
                        f"{dim.size} / {dim.factor} = {quotient}",
                        f"split over {over}",
                        key=True,
                    )
                )
            else:
                rows.append(Row(f"array axis {dim.axis}", f"{dim.size} (not split)"))
        if self.shard_shape is not None:
            how = "ceil(global shape ÷ split factor)" if self.padded_dims else "global shape ÷ split factor"
            rows.append(Row("shard shape", str(self.shard_shape), f"{how} per dimension", key=True))
        used = " · ".join(_axis_text(self, a) for a in self.used_axes) or "1"
        rows.append(Row("replication", f"{self.replication} copies", f"{self.mesh_devices} mesh devices / ({used})"))
        count = " · ".join(str(d) for d in self.shape)
        itemsize = dtypes.lookup(self.dtype).bits / 8
        rows.append(Row("global bytes", format_bytes_exact(self.global_bytes), f"{count} · {itemsize:g} B"))
        if self.shard_bytes is not None and self.shard_shape is not None and self.stored_bytes is not None:
            shard_count = " · ".join(str(d) for d in self.shard_shape)
            rows.append(
                Row(
                    "bytes per device",
                    format_bytes_exact(self.shard_bytes),
                    f"{shard_count} · {itemsize:g} B",
                    key=True,
                )
            )
            rows.append(
                Row(
                    "bytes over all devices",
                    format_bytes_exact(self.stored_bytes),
                    f"{format_count(self.shard_bytes)} B · {self.mesh_devices} devices",
                )
            )
        for coords, ranges in self.device_slices() or ():
            where = ", ".join(f"{name}={c}" for name, c in zip(self.mesh_names, coords, strict=True))
            held = "[" + ", ".join(f"{start}:{stop}" for start, stop in ranges) + "]"
            rows.append(Row(f"device ({where})", held, "block index along each cut · shard size"))
        rows.extend(Row("error", error, key=True) for error in self.errors)
        return tuple(rows)


def _padding_text(dim: DimSplit) -> str:
    """Which devices along a padded cut hold padding, and how much.

    Examples:
        >>> _padding_text(DimSplit(0, 6, ("x",), 4, False))
        'the devices at x position 3 hold 0 real rows + 2 padding rows'
        >>> _padding_text(DimSplit(1, 5, ("x", "y"), 4, False))
        'the devices at (x,y) position 2 hold 1 real + 1 padding; at position 3: 0 real + 2 padding'
    """
    where = dim.mesh_axes[0] if len(dim.mesh_axes) == 1 else "(" + ",".join(dim.mesh_axes) + ")"
    block = dim.padded_block
    groups: dict[int, list[int]] = {}
    for position in range(dim.factor):
        real = dim.real_entries(position)
        if real < block:
            groups.setdefault(real, []).append(position)
    parts = []
    for real, positions in sorted(groups.items(), reverse=True):
        span = f"position {positions[0]}" if len(positions) == 1 else f"positions {positions[0]} to {positions[-1]}"
        parts.append((span, f"{_rows(dim.axis, real, 'real')} + {_rows(dim.axis, block - real, 'padding')}"))
    (span, held), *rest = parts
    return f"the devices at {where} {span} hold {held}" + "".join(f"; at {span}: {held}" for span, held in rest)


def _rows(axis: int, count: int, kind: str) -> str:
    """``2 padding rows`` along array axis 0; a bare ``2 padding`` along the others."""
    if axis:
        return f"{count} {kind}"
    return f"{count} {kind} row{'' if count == 1 else 's'}"


def _axis_text(result: ShardShapeResult, axis: str) -> str:
    sizes = dict(zip(result.mesh_names, result.mesh_shape, strict=True))
    return f"{axis}={sizes[axis]}" if axis in sizes else f"{axis} (not in the mesh, counted as 1)"


def compute_shard_shape(inputs: ShardShapeInputs) -> ShardShapeResult:
    """Split the array over the mesh as ``NamedSharding(mesh, spec).shard_shape(shape)`` does, or as
    torch_xla's ``xs.mark_sharding`` does with ``framework="torch_xla"``.

    Args:
        inputs: Mesh, array shape, dtype, spec and optionally the number of devices.

    Returns:
        The per-dimension splits and the shard; errors worded after JAX's (or torch_xla's) for a spec
        or mesh it rejects.

    Examples:
        >>> inputs = ShardShapeInputs(parse_mesh("x:4,y:2"), (8, 6), "f32", parse_spec("x,None"))
        >>> result = compute_shard_shape(inputs)
        >>> result.shard_shape, result.replication, result.shard_bytes
        ((2, 6), 2, 48)
        >>> compute_shard_shape(ShardShapeInputs(parse_mesh("x:4,y:2"), (6, 4), "f32", parse_spec("x"))).errors
        ("array axis 0 (size 6) is split 4 ways over mesh axis 'x'; 6 is not divisible by 4",)
        >>> compute_shard_shape(ShardShapeInputs(parse_mesh("x:4,y:4"), (8,), "f32", (), devices=8)).errors
        ('Number of devices 8 must be >= the product of mesh_shape (4, 4)',)
        >>> mesh = parse_mesh("x:4,y:2")
        >>> result = compute_shard_shape(ShardShapeInputs(mesh, (6, 4), "f32", ("x", None), framework="torch_xla"))
        >>> result.shard_shape, result.errors, [dim.padding for dim in result.padded_dims]
        ((2, 4), (), [2])
    """
    sizes = dict(inputs.mesh)
    mesh_shape = tuple(size for _, size in inputs.mesh)
    mesh_names = tuple(name for name, _ in inputs.mesh)
    mesh_devices = math.prod(mesh_shape)
    devices = mesh_devices if inputs.devices is None else inputs.devices
    torch_xla = inputs.framework == "torch_xla"
    spec = repr(tuple(inputs.spec)) if torch_xla else spec_repr(inputs.spec)
    named = [axis for entry in inputs.spec for axis in _axes(entry)]
    dims: list[DimSplit] = []
    for axis, size in enumerate(inputs.shape):
        entry = inputs.spec[axis] if axis < len(inputs.spec) else None
        mesh_axes = _axes(entry)
        factor = math.prod(sizes.get(name, 1) for name in mesh_axes)
        dims.append(DimSplit(axis, size, mesh_axes, factor, size % factor == 0))
    errors = _torch_xla_errors(inputs, devices) if torch_xla else _jax_errors(inputs, devices, dims)
    used_axes = tuple(axis for axis in mesh_names if axis in named)
    replication = mesh_devices // math.prod(sizes[axis] for axis in used_axes)
    dtype = dtypes.lookup(inputs.dtype)
    shard_shape = None if errors else tuple(dim.padded_block for dim in dims)
    shard_bytes = dtype.nbytes(math.prod(shard_shape)) if shard_shape is not None else None
    return ShardShapeResult(
        mesh_shape=mesh_shape,
        mesh_names=mesh_names,
        mesh_devices=mesh_devices,
        devices=devices,
        dtype=dtype.short,
        shape=inputs.shape,
        spec=spec,
        dims=tuple(dims),
        shard_shape=shard_shape,
        used_axes=used_axes,
        replication=replication,
        global_bytes=dtype.nbytes(math.prod(inputs.shape)),
        shard_bytes=shard_bytes,
        stored_bytes=None if shard_bytes is None else shard_bytes * mesh_devices,
        errors=tuple(errors),
        framework=inputs.framework,
    )


def _jax_errors(inputs: ShardShapeInputs, devices: int, dims: list[DimSplit]) -> list[str]:
    """What ``jax.make_mesh`` and ``NamedSharding`` reject, in the order JAX checks."""
    mesh_shape = tuple(size for _, size in inputs.mesh)
    mesh_names = tuple(name for name, _ in inputs.mesh)
    spec = spec_repr(inputs.spec)
    errors: list[str] = []
    if devices < math.prod(mesh_shape):
        errors.append(f"Number of devices {devices} must be >= the product of mesh_shape {mesh_shape}")
    named = [axis for entry in inputs.spec for axis in _axes(entry)]
    for axis in dict.fromkeys(named):
        if axis not in mesh_names:
            errors.append(f"Resource axis: {axis} of {spec} is not found in mesh: {mesh_names}.")
    for axis in dict.fromkeys(named):
        if named.count(axis) > 1:
            errors.append(
                "A single NamedSharding spec specification can map every mesh axis to at most one positional "
                f"dimension, but {spec} has duplicate entries for `{axis}`"
            )
    rank = len(inputs.shape)
    if len(inputs.spec) > rank:
        errors.append(
            f"{spec} has {len(inputs.spec)} entries but the array has rank {rank}; a spec may be shorter than "
            "the rank (the remaining dimensions are not split) but not longer"
        )
    for dim in dims:
        if not dim.divisible:
            axes_text = f"mesh axis {dim.mesh_axes[0]!r}" if len(dim.mesh_axes) == 1 else f"mesh axes {dim.mesh_axes}"
            errors.append(
                f"array axis {dim.axis} (size {dim.size}) is split {dim.factor} ways over {axes_text}; "
                f"{dim.size} is not divisible by {dim.factor}"
            )
    return errors


def _torch_xla_errors(inputs: ShardShapeInputs, devices: int) -> list[str]:
    """What ``xs.Mesh`` and ``xs.mark_sharding`` assert, worded as torch_xla 2.9 words them.

    torch_xla stops at the first failed check, so there is at most one error. Uneven cuts are not
    errors: torch_xla pads them.

    Examples:
        >>> mesh = parse_mesh("x:4,y:2")
        >>> _torch_xla_errors(ShardShapeInputs(mesh, (8, 6), "f32", ("x",), framework="torch_xla"), 8)
        ['Partition spec length (1) should be equal to the input rank (2).']
        >>> _torch_xla_errors(ShardShapeInputs(mesh, (8, 6), "f32", ("x", "x"), framework="torch_xla"), 8)
        ['Each device mesh dimension should appear at most once in partition_spec (0, 0).']
    """
    mesh_names = tuple(name for name, _ in inputs.mesh)
    mesh_devices = math.prod(size for _, size in inputs.mesh)
    if devices != mesh_devices:
        return [f"Number of device IDs ({mesh_devices}) must match the global number of devices ({devices})"]
    if len(inputs.spec) != len(inputs.shape):
        return [f"Partition spec length ({len(inputs.spec)}) should be equal to the input rank ({len(inputs.shape)})."]
    named = [axis for entry in inputs.spec for axis in _axes(entry)]
    for axis in named:
        if axis not in mesh_names:
            return [f"Axis name {axis} is not defined in the given mesh"]
    if len(set(named)) < len(named):
        translated = tuple(
            None
            if entry is None
            else tuple(mesh_names.index(a) for a in entry)
            if isinstance(entry, tuple)
            else mesh_names.index(entry)
            for entry in inputs.spec
        )
        return [f"Each device mesh dimension should appear at most once in partition_spec {translated}."]
    return []


def draw_mesh(result: ShardShapeResult) -> Picture | None:
    """The mesh as a grid of devices, each with the slice of the array it holds; replicas share a colour.

    The first mesh axis runs down, the others across (row-major, as ``mesh.devices`` is laid out).
    Nothing is drawn for a sharding JAX rejects or a mesh of more than 16 devices.

    Examples:
        >>> picture = draw_mesh(compute_shard_shape(ShardShapeInputs((("x", 2), ("y", 2)), (4, 6), "f32", ("x",))))
        >>> print(picture.text)
        2 x 2 mesh (x down, y across); each device holds f32[2,6]: device 0 [0:2, 0:6], device 1 [0:2, 0:6], \
device 2 [2:4, 0:6], device 3 [2:4, 0:6]; devices with the same colour hold the same slice (2 copies each).
    """
    slices = result.device_slices()
    if slices is None or result.shard_shape is None:
        return None
    rows = result.mesh_shape[0]
    cols = math.prod(result.mesh_shape[1:]) if len(result.mesh_shape) > 1 else 1
    width, height, top = 132, 58, 4
    colours: dict[tuple[tuple[int, int], ...], str] = {}
    body = []
    described = []
    for number, (_, ranges) in enumerate(slices):
        colour = colours.setdefault(ranges, COLOURS[len(colours) % len(COLOURS)])
        row, col = divmod(number, cols)
        x, y = 4 + col * width, top + row * height
        text = "[" + ", ".join(f"{start}:{stop}" for start, stop in ranges) + "]"
        body.append(rect(x, y, width - 6, height - 6, colour))
        body.append(label(x + (width - 6) / 2, y + 15, f"device {number}", weight="600"))
        body.append(label(x + (width - 6) / 2, y + 35, text, size=11))
        described.append(f"device {number} {text}")
    across = ", ".join(result.mesh_names[1:]) or "none"
    shard = dtypes.aval(result.dtype, result.shard_shape)
    title = f"{' x '.join(map(str, result.mesh_shape))} mesh ({result.mesh_names[0]} down, {across} across)"
    copies = f" ({result.replication} copies each)" if result.replication > 1 else ""
    text = (
        f"{title}; each device holds {shard}: {', '.join(described)}; devices with the same colour hold the "
        f"same slice{copies}."
    )
    return svg(cols * width + 4, top + rows * height, body, text)


CALCULATOR = register_calculator(
    Calculator(
        name="shard-shape",
        title="Shard shape calculator",
        summary="The per-device shard shape, replication and bytes of NamedSharding(mesh, PartitionSpec), "
        "and the errors JAX raises for specs it rejects.",
        explainer="sharding#divisibility",
        inputs=ShardShapeInputs,
        fields=(
            Field(
                "mesh",
                "text",
                "Mesh",
                "Mesh axes in order as name:size, e.g. x:4,y:2 for jax.make_mesh((4, 2), ('x', 'y')).",
                parser=parse_mesh,
                formatter=format_mesh,
                placeholder="x:4,y:2",
            ),
            Field("shape", "ints", "Global shape", "The global array shape, e.g. 8,6.", minimum=0, placeholder="8,6"),
            Field(
                "dtype",
                "choice",
                "dtype",
                "Element type of the array.",
                default="f32",
                choices=dtypes.DTYPE_CHOICES,
            ),
            Field(
                "spec",
                "text",
                "PartitionSpec",
                "One entry per array dimension: a mesh axis, (axis,axis) or None, e.g. (x,y),None; "
                "empty for P() (fully replicated).",
                default="",
                parser=parse_spec,
                formatter=format_spec,
                placeholder="x,None",
            ),
            Field(
                "devices",
                "int",
                "Devices",
                "How many devices exist (jax.device_count()); empty means exactly as many as the mesh uses.",
                default="",
                minimum=1,
                optional=True,
            ),
            Field(
                "framework",
                "choice",
                "Framework",
                "jax: NamedSharding, where an uneven split is an error and the spec may be shorter than the "
                "rank; torch_xla: xs.mark_sharding, where the spec has one entry per dimension and an uneven "
                "split is padded.",
                default="jax",
                choices=FRAMEWORKS,
            ),
        ),
        compute=compute_shard_shape,
        picture=draw_mesh,
        examples=(
            {"mesh": "x:4,y:2", "shape": "8,6", "dtype": "f32", "spec": "x,None"},
            {"mesh": "x:4,y:2", "shape": "6,4", "dtype": "bf16", "spec": "x"},
            {"mesh": "x:4,y:2", "shape": "16,3", "dtype": "f32", "spec": "(x,y)"},
            {"mesh": "x:4,y:4", "shape": "1024,1024", "dtype": "bf16", "spec": "x,y", "devices": "8"},
            {"mesh": "data:2,model:4", "shape": "4096,8192", "dtype": "bf16", "spec": "None,model"},
            {"mesh": "x:4,y:2", "shape": "6,4", "dtype": "f32", "spec": "x,None", "framework": "torch_xla"},
        ),
    )
)
