"""Remat calculator: the residuals ``grad`` keeps for a stack of layers, per ``jax.checkpoint`` policy.

Reverse-mode differentiation runs the forward pass, keeps the values the backward pass needs (the
*residuals*), then runs backward. ``jax.checkpoint`` (remat) around each layer keeps fewer and
recomputes the rest during the backward pass; its ``policy`` says which values are still saved.
The counts below are what ``jax.ad_checkpoint.print_saved_residuals`` lists in JAX 0.10.2 for
``L`` layers applied in a Python loop to an activation of shape ``(b, d)``, leaving out the
function's arguments (the parameters and the first input, which are kept anyway):

* ``tanh-dense``, ``x -> tanh(x @ W)``: without checkpoint (or ``everything_saveable``) each layer
  keeps its output and ``1 - y²`` (2 per layer); ``nothing_saveable`` keeps only each layer's input
  (``L - 1`` beyond the argument); ``dots_saveable`` keeps the matmul outputs and the layer inputs
  (``2L - 1``).
* ``relu-mlp``, ``x -> x + relu(x @ W1) @ W2`` with hidden width ``f``: without checkpoint each
  layer keeps the relu output, the ``x > 0`` mask (bool) and a broadcast ``(b, f)`` operand of
  relu's derivative, plus the layer inputs; ``nothing_saveable`` the layer inputs only;
  ``dots_saveable`` the first matmul's ``(b, f)`` output and the layer inputs.

Every checkpointed layer is run forward a second time during the backward pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.limits import MAX_DIM
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.units import format_bytes, format_bytes_exact

Layer = Literal["tanh-dense", "relu-mlp"]
Policy = Literal["none", "nothing_saveable", "dots_saveable", "everything_saveable"]
POLICIES: tuple[Policy, ...] = ("none", "nothing_saveable", "dots_saveable", "everything_saveable")
MAX_LAYERS = 100_000


@dataclass(frozen=True)
class Residual:
    """Residuals of one kind: how many, their shape and dtype."""

    count: int
    shape: tuple[int, int]
    dtype: str
    what: str

    def nbytes(self) -> int:
        """Bytes of all of them."""
        return dtypes.lookup(self.dtype).nbytes(self.count * self.shape[0] * self.shape[1])

    def __str__(self) -> str:
        return f"{self.count} x {dtypes.aval(self.dtype, self.shape)} ({self.what})"


def residuals(layer: Layer, policy: Policy, layers: int, b: int, d: int, f: int, dtype: str) -> tuple[Residual, ...]:
    """The residuals ``grad`` keeps beyond the arguments.

    Examples:
        >>> [str(r) for r in residuals("tanh-dense", "dots_saveable", 3, 4, 8, 16, "f32")]
        ['3 x f32[4,8] (matmul outputs)', '2 x f32[4,8] (layer inputs)']
        >>> sum(r.nbytes() for r in residuals("relu-mlp", "none", 3, 4, 8, 16, "f32"))
        1984
    """
    inputs = Residual(layers - 1, (b, d), dtype, "layer inputs")
    if layer == "tanh-dense":
        if policy in ("none", "everything_saveable"):
            return (Residual(layers, (b, d), dtype, "tanh outputs"), Residual(layers, (b, d), dtype, "1 - y²"))
        if policy == "nothing_saveable":
            return (inputs,)
        return (Residual(layers, (b, d), dtype, "matmul outputs"), inputs)
    if policy in ("none", "everything_saveable"):
        return (
            Residual(layers, (b, f), dtype, "relu outputs"),
            Residual(layers, (b, f), "bool", "x > 0 masks"),
            Residual(layers, (b, f), dtype, "broadcast operands of relu's derivative"),
            inputs,
        )
    if policy == "nothing_saveable":
        return (inputs,)
    return (Residual(layers, (b, f), dtype, "first matmul outputs"), inputs)


@dataclass(frozen=True)
class RematInputs:
    """A stack of ``layers`` identical layers on a ``(batch, width)`` activation, and a policy."""

    layer: Layer
    layers: int
    batch: int
    width: int
    hidden: int
    dtype: str
    policy: Policy

    def __post_init__(self) -> None:
        if self.layers > MAX_LAYERS:
            raise CalculatorInputError("layers", f"{self.layers} layers; the limit is {MAX_LAYERS}")
        for name in ("batch", "width", "hidden"):
            if getattr(self, name) >= MAX_DIM:
                raise CalculatorInputError(name, "is not below 2**62")
        try:
            dtype = dtypes.lookup(self.dtype)
        except ValueError as error:
            raise CalculatorInputError("dtype", str(error)) from None
        if dtype.kind not in ("float",):
            raise CalculatorInputError("dtype", f"{dtype.short} is not a floating dtype; grad needs one")
        object.__setattr__(self, "dtype", dtype.short)


@dataclass(frozen=True)
class RematResult:
    """Residual bytes for the chosen policy and for each of the others.

    Attributes:
        kept: The chosen policy's residuals, described.
        bytes: Their total bytes.
        by_policy: ``(policy, bytes)`` for every policy, for comparison.
        recomputed: How many layers run forward again in the backward pass.
    """

    layer: str
    policy: str
    kept: tuple[str, ...]
    bytes: int
    by_policy: tuple[tuple[str, int], ...]
    recomputed: int

    @property
    def status(self) -> Status:
        """Always ``ok``: every policy computes the same gradient."""
        return "ok"

    @property
    def headline(self) -> str:
        """Bytes kept and layers recomputed."""
        base = dict(self.by_policy)["none"]
        share = f" ({self.bytes / base:.0%} of no checkpoint)" if base else ""
        again = f"; {self.recomputed} layers run forward again" if self.recomputed else ""
        return f"{self.policy}: {format_bytes(self.bytes)} of residuals kept{share}{again}"

    def rows(self) -> tuple[Row, ...]:
        """What is kept, then each policy's total."""
        rows = [Row("kept", item, "") for item in self.kept]
        rows += [
            Row(
                f"total with {policy}",
                format_bytes_exact(nbytes),
                "as print_saved_residuals lists them, arguments left out",
            )
            for policy, nbytes in self.by_policy
        ]
        return tuple(rows)


def compute_remat(inputs: RematInputs) -> RematResult:
    """Residuals per policy for the layer stack.

    Examples:
        >>> result = compute_remat(RematInputs("tanh-dense", 24, 1024, 4096, 16384, "bf16", "nothing_saveable"))
        >>> print(result.headline)
        nothing_saveable: 184.0 MiB of residuals kept (48% of no checkpoint); 24 layers run forward again
    """
    shape = (inputs.layer, inputs.layers, inputs.batch, inputs.width, inputs.hidden, inputs.dtype)
    by_policy = tuple((policy, sum(r.nbytes() for r in residuals(shape[0], policy, *shape[1:]))) for policy in POLICIES)
    kept = residuals(inputs.layer, inputs.policy, *shape[1:])
    return RematResult(
        layer=inputs.layer,
        policy=inputs.policy,
        kept=tuple(str(r) for r in kept if r.count),
        bytes=dict(by_policy)[inputs.policy],
        by_policy=by_policy,
        recomputed=0 if inputs.policy == "none" else inputs.layers,
    )


def _size(name: str, label: str, help_text: str, default: str) -> Field:
    return Field(name, "int", label, help_text, default=default, minimum=1)


CALCULATOR = register_calculator(
    Calculator(
        name="remat",
        title="Remat memory calculator",
        summary="The activations grad keeps for a stack of layers under each jax.checkpoint policy, "
        "as jax.ad_checkpoint.print_saved_residuals lists them.",
        explainer="remat#checkpoint-policies",
        inputs=RematInputs,
        fields=(
            Field(
                "layer",
                "choice",
                "Layer",
                "tanh-dense: x -> tanh(x @ W); relu-mlp: x -> x + relu(x @ W1) @ W2.",
                default="relu-mlp",
                choices=("tanh-dense", "relu-mlp"),
            ),
            _size("layers", "Layers", "How many layers the loop applies.", "24"),
            _size("batch", "Batch (b)", "Rows of the activation (tokens or examples).", "1024"),
            _size("width", "Width (d)", "Columns of the activation.", "4096"),
            _size("hidden", "Hidden (f)", "The relu-mlp's hidden width (unused for tanh-dense).", "16384"),
            Field("dtype", "choice", "dtype", "The activations' dtype.", default="bf16", choices=dtypes.DTYPE_CHOICES),
            Field(
                "policy",
                "choice",
                "Policy",
                "none: no jax.checkpoint; otherwise jax.checkpoint(layer, policy=jax.checkpoint_policies.<policy>).",
                default="nothing_saveable",
                choices=POLICIES,
            ),
        ),
        compute=compute_remat,
        examples=(
            {"layer": "relu-mlp", "layers": "24", "batch": "1024", "width": "4096", "hidden": "16384"},
            {"layer": "tanh-dense", "layers": "24", "batch": "1024", "width": "4096", "policy": "dots_saveable"},
            {"layer": "relu-mlp", "layers": "4", "batch": "8", "width": "16", "hidden": "64", "policy": "none"},
        ),
    )
)
