"""Roofline calculator for one matmul ``(m, k) @ (k, n)`` on one accelerator chip.

A matmul does ``2·m·k·n`` FLOPs and must move at least its three operands through HBM once,
``(m·k + k·n + m·n) · itemsize`` bytes. Its arithmetic intensity (FLOPs per byte) against the
chip's ridge point (peak FLOP/s ÷ HBM bytes/s) says which limit binds: above the ridge the math
takes longer than the memory traffic (compute-bound), below it the traffic does (memory-bound).
The time is at least ``max(T_math, T_mem)`` and at most their sum when nothing overlaps.

The chip table holds the dense (no sparsity) bf16 peak, HBM capacity and HBM bandwidth per chip,
each with its source; where sources disagree the table says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.limits import MAX_DIM
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.units import (
    format_bandwidth,
    format_bytes,
    format_bytes_exact,
    format_count,
    format_flop_rate,
    format_flops,
    format_seconds,
)

GiB = 2**30


@dataclass(frozen=True)
class Chip:
    """Peak numbers for one chip, with sources.

    Attributes:
        name: The choice name (``H100``).
        peak_flops: Dense bf16 FLOP/s per chip.
        peak_source: Where that number comes from.
        hbm_bytes: HBM capacity in bytes.
        hbm_text: The capacity as the source writes it.
        hbm_source: Where the capacity comes from.
        bandwidth: HBM bytes per second.
        bandwidth_source: Where the bandwidth comes from, with other published values.
    """

    name: str
    peak_flops: float
    peak_source: str
    hbm_bytes: int
    hbm_text: str
    hbm_source: str
    bandwidth: float
    bandwidth_source: str


_TORCHTITAN = "torchtitan tools/utils.py"
CHIPS: dict[str, Chip] = {
    chip.name: chip
    for chip in (
        Chip(
            "A100-40GB",
            312e12,
            f"{_TORCHTITAN} (312e12, citing nvidia.com/en-us/data-center/a100/)",
            40 * 10**9,
            "40 GB HBM2",
            "NVIDIA A100 datasheet",
            1.555e12,
            "glennklockwood.com/garden/processors/A100 (1,555 GB/s, citing the NVIDIA A100 datasheet)",
        ),
        Chip(
            "A100-80GB",
            312e12,
            f"{_TORCHTITAN} (312e12, citing nvidia.com/en-us/data-center/a100/)",
            80 * 10**9,
            "80 GB HBM2e",
            "NVIDIA A100 datasheet; scaling-book gpus.md",
            2.039e12,
            "SXM 2,039 GB/s (thundercompute.com A100 specs guide); the PCIe card has 1,935 GB/s; "
            "scaling-book gpus.md rounds to 2.0e12",
        ),
        Chip(
            "H100",
            989e12,
            f"{_TORCHTITAN} (989e12 dense; 1979e12 is the with-sparsity figure); scaling-book roofline.md (9.89e14)",
            80 * 10**9,
            "80 GB HBM3",
            "scaling-book roofline.md",
            3.35e12,
            "scaling-book roofline.md (3.35 TB/s, H100 SXM)",
        ),
        Chip(
            "H200",
            989e12,
            f"{_TORCHTITAN} (989e12, citing nvidia.com/en-us/data-center/h200/); scaling-book gpus.md (9.9e14)",
            141 * 10**9,
            "141 GB HBM3e",
            "scaling-book gpus.md",
            4.8e12,
            "scaling-book gpus.md (4.8e12)",
        ),
        Chip(
            "TPU-v4",
            275e12,
            "cloud.google.com/tpu/docs/v4 (275 TFLOPs bf16)",
            32 * GiB,
            "32 GiB HBM2",
            "cloud.google.com/tpu/docs/v4",
            1.2e12,
            "cloud.google.com/tpu/docs/v4 (1,200 GBps); JAX tpu_info.py has 1.23e12",
        ),
        Chip(
            "TPU-v5e",
            197e12,
            "cloud.google.com/tpu/docs/v5e (197 TFLOPs bf16); JAX tpu_info.py 1.97e14",
            16 * 10**9,
            "16 GB",
            "cloud.google.com/tpu/docs/v5e (JAX tpu_info.py: 17.2e9 B)",
            8.19e11,
            "cloud.google.com/tpu/docs/v5e (819 GBps); JAX tpu_info.py has 8.2e11",
        ),
        Chip(
            "TPU-v5p",
            459e12,
            "cloud.google.com/tpu/docs/v5p (459 TFLOPs bf16); JAX tpu_info.py 4.59e14",
            95 * GiB,
            "95 GiB HBM2e",
            "cloud.google.com/tpu/docs/v5p (JAX tpu_info.py: 103e9 B; scaling-book tpus.md: 96 GB)",
            2.765e12,
            "cloud.google.com/tpu/docs/v5p (2,765 GBps); sources disagree: JAX tpu_info.py has 2.46e12, "
            "scaling-book tpus.md 2.8e12",
        ),
        Chip(
            "TPU-v6e",
            918e12,
            "cloud.google.com/tpu/docs/v6e (918 TFLOPs bf16); JAX tpu_info.py 9.20e14",
            32 * 10**9,
            "32 GB",
            "cloud.google.com/tpu/docs/v6e",
            1.64e12,
            "cloud.google.com/tpu/docs/v6e (1,640 GBps); sources disagree: a newer revision of the same page "
            "says 1,600 GBps; JAX tpu_info.py has 1.64e12",
        ),
    )
}

Bound = Literal["compute", "memory"]


def _peak_note(dtype: dtypes.DType) -> str:
    """What the bf16 peak means for the chosen dtype."""
    if dtype.short == "bf16":
        return "the peak is the dense bf16 number"
    if dtype.short == "f16":
        return "the peak is the dense bf16 number; f16 is assumed to run at the bf16 rate"
    if dtype.bits >= 32:
        return (
            f"the peak is the dense bf16 number; {dtype.short} matmuls run below it on these chips, "
            "so T_math and the time bound are optimistic"
        )
    return (
        f"the peak is the dense bf16 number; some chips run {dtype.short} faster (TPU v5e: 3.94e14 int8 ops/s "
        "in JAX tpu_info.py against 1.97e14 bf16), so T_math may be pessimistic"
    )


@dataclass(frozen=True)
class RooflineInputs:
    """A matmul ``(m, k) @ (k, n)`` of one dtype on one chip.

    Raises:
        CalculatorInputError: naming ``chip``, ``m``, ``k``, ``n`` or ``dtype`` for an unknown chip,
            sizes below 1 or not below 2**62, or a dtype that is not a matmul type.
    """

    chip: str
    m: int
    k: int
    n: int
    dtype: str = "bf16"

    def __post_init__(self) -> None:
        if self.chip not in CHIPS:
            raise CalculatorInputError("chip", f"{self.chip!r} is not one of {', '.join(CHIPS)}")
        for name in ("m", "k", "n"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise CalculatorInputError(name, f"{value} is below 1")
            if value >= MAX_DIM:
                raise CalculatorInputError(name, f"{value} is not below 2**62")
        try:
            dtype = dtypes.lookup(self.dtype)
        except ValueError as error:
            raise CalculatorInputError("dtype", str(error)) from None
        if dtype.kind == "bool":
            raise CalculatorInputError("dtype", "bool is not a matmul dtype")
        if dtype.kind == "complex":
            raise CalculatorInputError(
                "dtype", f"{dtype.name} matmuls are not modelled: the chips' peak figures are for real dtypes"
            )
        object.__setattr__(self, "dtype", dtype.short)


@dataclass(frozen=True)
class RooflineResult:
    """The roofline numbers of one matmul.

    Attributes:
        chip: The chip's name.
        dtype: The operand dtype.
        m: Rows of the left operand.
        k: The contracted dimension.
        n: Columns of the right operand.
        flops: ``2·m·k·n``.
        bytes: ``(m·k + k·n + m·n) · itemsize``, the least HBM traffic.
        intensity: ``flops / bytes`` in FLOP per byte.
        peak_flops: The chip's dense bf16 FLOP/s.
        bandwidth: The chip's HBM bytes/s.
        ridge: ``peak_flops / bandwidth``, the intensity where both limits meet.
        bound: ``compute`` when ``intensity > ridge``, else ``memory``.
        t_math: ``flops / peak_flops`` seconds.
        t_mem: ``bytes / bandwidth`` seconds.
        t_lower: ``max(t_math, t_mem)``, the time lower bound.
        t_upper: ``t_math + t_mem``, the time with no overlap.
        peak_fraction: ``min(1, intensity / ridge)``, the largest share of peak FLOP/s reachable.
        hbm_bytes: The chip's HBM capacity.
        peak_note: What the bf16 peak means for this dtype.
        peak_source: Source of the peak.
        bandwidth_source: Source of the bandwidth, with disagreements.
        hbm_source: Source of the capacity.
    """

    chip: str
    dtype: str
    m: int
    k: int
    n: int
    flops: int
    bytes: int
    intensity: float
    peak_flops: float
    bandwidth: float
    ridge: float
    bound: Bound
    t_math: float
    t_mem: float
    t_lower: float
    t_upper: float
    peak_fraction: float
    hbm_bytes: int
    peak_note: str
    peak_source: str
    bandwidth_source: str
    hbm_source: str

    @property
    def status(self) -> Status:
        """``error`` when the operands exceed HBM, ``warning`` when memory-bound, else ``ok``."""
        if self.bytes > self.hbm_bytes:
            return "error"
        return "warning" if self.bound == "memory" else "ok"

    @property
    def headline(self) -> str:
        """FLOPs, bytes, intensity against the ridge, the bound and the time lower bound."""
        shape = f"({self.m}, {self.k}) @ ({self.k}, {self.n}) {self.dtype}"
        text = (
            f"{shape} on {self.chip}: {format_flops(self.flops)} over {format_bytes(self.bytes)} = "
            f"{self.intensity:,.1f} FLOP/B vs ridge {self.ridge:,.1f} → {self.bound}-bound; "
            f"≥ {format_seconds(self.t_lower)} (T_math {format_seconds(self.t_math)}, "
            f"T_mem {format_seconds(self.t_mem)}) at the dense bf16 peak {format_flop_rate(self.peak_flops)}"
        )
        if self.bound == "memory":
            text += f"; at most {self.peak_fraction:.1%} of peak FLOP/s"
        if self.bytes > self.hbm_bytes:
            text += f"; the operands need {format_bytes(self.bytes)} but HBM holds {format_bytes(self.hbm_bytes)}"
        return text

    def rows(self) -> tuple[Row, ...]:
        """The roofline formula step by step."""
        itemsize = dtypes.lookup(self.dtype).bits / 8
        m, k, n = self.m, self.k, self.n
        return (
            Row("FLOPs", f"{format_count(self.flops)} ({format_flops(self.flops)})", f"2 · {m} · {k} · {n}"),
            Row(
                "bytes (minimum HBM traffic)",
                format_bytes_exact(self.bytes),
                f"({m}·{k} + {k}·{n} + {m}·{n}) · {itemsize:g} B",
            ),
            Row(
                "arithmetic intensity",
                f"{self.intensity:,.2f} FLOP/B",
                f"{format_count(self.flops)} / {format_count(self.bytes)}",
            ),
            Row("peak (dense bf16)", format_flop_rate(self.peak_flops), f"{self.peak_source}; {self.peak_note}"),
            Row("HBM bandwidth", format_bandwidth(self.bandwidth), self.bandwidth_source),
            Row(
                "ridge point",
                f"{self.ridge:,.1f} FLOP/B",
                f"{self.peak_flops:.4g} FLOP/s / {self.bandwidth:.4g} B/s",
            ),
            Row(
                "bound",
                self.bound,
                f"{self.intensity:,.2f} {'>' if self.bound == 'compute' else '≤'} {self.ridge:,.1f}",
            ),
            Row("T_math", format_seconds(self.t_math), f"{format_count(self.flops)} / {self.peak_flops:.4g}"),
            Row("T_mem", format_seconds(self.t_mem), f"{format_count(self.bytes)} / {self.bandwidth:.4g}"),
            Row("time lower bound", format_seconds(self.t_lower), "max(T_math, T_mem)"),
            Row("time with no overlap", format_seconds(self.t_upper), "T_math + T_mem"),
            Row(
                "reachable share of peak",
                f"{self.peak_fraction:.1%}",
                f"min(1, {self.intensity:,.2f} / {self.ridge:,.1f})",
            ),
            Row("HBM capacity", format_bytes(self.hbm_bytes), self.hbm_source),
        )


def compute_roofline(inputs: RooflineInputs) -> RooflineResult:
    """Roofline of ``(m, k) @ (k, n)`` on a chip.

    Args:
        inputs: Chip, sizes and dtype.

    Returns:
        FLOPs, bytes, intensity, ridge, bound and the time bounds, with sources.

    Examples:
        >>> result = compute_roofline(RooflineInputs("H100", 4096, 4096, 4096, "bf16"))
        >>> result.flops, result.bytes, round(result.ridge, 1), result.bound
        (137438953472, 100663296, 295.2, 'compute')
        >>> print(result.headline)  # doctest: +NORMALIZE_WHITESPACE
        (4096, 4096) @ (4096, 4096) bf16 on H100: 137 GFLOP over 96.0 MiB = 1,365.3 FLOP/B vs ridge 295.2
        → compute-bound; ≥ 139 µs (T_math 139 µs, T_mem 30.0 µs) at the dense bf16 peak 989 TFLOP/s
        >>> compute_roofline(RooflineInputs("TPU-v5e", 1, 8192, 8192, "bf16")).bound
        'memory'
    """
    chip = CHIPS[inputs.chip]
    dtype = dtypes.lookup(inputs.dtype)
    m, k, n = inputs.m, inputs.k, inputs.n
    flops = 2 * m * k * n
    nbytes = dtype.nbytes(m * k + k * n + m * n)
    intensity = flops / nbytes
    ridge = chip.peak_flops / chip.bandwidth
    t_math = flops / chip.peak_flops
    t_mem = nbytes / chip.bandwidth
    return RooflineResult(
        chip=chip.name,
        dtype=dtype.short,
        m=m,
        k=k,
        n=n,
        flops=flops,
        bytes=nbytes,
        intensity=intensity,
        peak_flops=chip.peak_flops,
        bandwidth=chip.bandwidth,
        ridge=ridge,
        bound="compute" if intensity > ridge else "memory",
        t_math=t_math,
        t_mem=t_mem,
        t_lower=max(t_math, t_mem),
        t_upper=t_math + t_mem,
        peak_fraction=min(1.0, intensity / ridge),
        hbm_bytes=chip.hbm_bytes,
        peak_note=_peak_note(dtype),
        peak_source=chip.peak_source,
        bandwidth_source=chip.bandwidth_source,
        hbm_source=f"{chip.hbm_text}; {chip.hbm_source}",
    )


def _size_field(name: str, label: str, help_text: str) -> Field:
    return Field(name, "int", label, help_text, default="4096", minimum=1, placeholder="4096")


CALCULATOR = register_calculator(
    Calculator(
        name="roofline",
        title="Matmul roofline calculator",
        summary="FLOPs, bytes, arithmetic intensity and the compute or memory bound of one matmul on one chip.",
        explainer="performance-model#the-roofline",
        inputs=RooflineInputs,
        fields=(
            Field("chip", "choice", "Chip", "The accelerator chip.", default="H100", choices=tuple(CHIPS)),
            _size_field("m", "m", "Rows of the left operand (m in (m, k) @ (k, n)), e.g. the batch of tokens."),
            _size_field("k", "k", "The contracted dimension (k in (m, k) @ (k, n))."),
            _size_field("n", "n", "Columns of the right operand (n in (m, k) @ (k, n))."),
            Field(
                "dtype",
                "choice",
                "dtype",
                "Element type of both operands and the result.",
                default="bf16",
                choices=dtypes.DTYPE_CHOICES,
            ),
        ),
        compute=compute_roofline,
        examples=(
            {"chip": "H100", "m": "4096", "k": "4096", "n": "4096", "dtype": "bf16"},
            {"chip": "TPU-v5e", "m": "8", "k": "8192", "n": "8192", "dtype": "bf16"},
            {"chip": "A100-80GB", "m": "256", "k": "12288", "n": "49152", "dtype": "f32"},
            {"chip": "TPU-v6e", "m": "1024", "k": "1024", "n": "1024", "dtype": "i8"},
        ),
    )
)
