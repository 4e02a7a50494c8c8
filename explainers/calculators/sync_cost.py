"""Sync-cost calculator: what a torch_xla training loop runs, copies and compiles over N steps.

On an XLA device a step's operations are recorded into a lazy graph that runs at the step's sync
point (``torch_xla.sync()``, ``xm.mark_step()``, an ``MpDeviceLoader`` iteration). Each host read
inside the step (``.item()``, ``print(loss)``, ``if loss > t:``, a boolean-mask index) cuts the
graph: what was recorded before it runs right away and the value is copied to the host. So a step
with ``r`` such reads runs ``1 + r`` graphs and makes ``r`` device-to-host transfers. A read in
``xm.add_step_closure`` happens after the step's graph ran: a transfer, no extra execution.

Compiles are cached by graph: each distinct graph the step traces (a new input shape, a special
scalar 0/1/-1 against other values) is compiled once per piece the reads cut it into, then reused.
Without a sync point the graph of every step is appended to one graph that runs only when a value
is read; with reads in the step, each read then runs (and compiles) a graph that has grown by one
more step.

The formulas match what the torch_xla oracle tier measured with torch_xla 2.9 on CPU: 5 steps with
one ``.item()`` ran 10 executions and 5 transfers; with ``xm.add_step_closure`` 5 and 5; one compile
per distinct batch size; two compiles for a scalar alternating between 1.0 and 0.5.
"""

from __future__ import annotations

from dataclasses import dataclass

from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.limits import MAX_DIM
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.units import format_count

MAX_READS = 10_000
"""More reads per step than this is not a training step; the calculator refuses."""


@dataclass(frozen=True)
class SyncCostInputs:
    """One training loop's per-step behaviour.

    Raises:
        CalculatorInputError: naming ``steps``, ``host-reads``, ``closure-reads`` or ``graphs`` for
            counts out of range.
    """

    steps: int = 1000
    host_reads: int = 0
    closure_reads: int = 0
    graphs: int = 1
    synced: bool = True

    def __post_init__(self) -> None:
        for name, low, high in (
            ("steps", 1, MAX_DIM),
            ("host_reads", 0, MAX_READS),
            ("closure_reads", 0, MAX_READS),
            ("graphs", 1, MAX_READS),
        ):
            value = getattr(self, name)
            field = name.replace("_", "-")
            if not isinstance(value, int) or value < low:
                raise CalculatorInputError(field, f"{value} is below {low}")
            if value > high:
                raise CalculatorInputError(field, f"{value} is above {format_count(high)}")


@dataclass(frozen=True)
class SyncCostResult:
    """What the loop costs over ``steps`` steps.

    Attributes:
        steps: The number of steps.
        host_reads: Host reads per step before the step's sync.
        closure_reads: Reads per step in ``xm.add_step_closure``.
        graphs: Distinct graphs the step traces.
        synced: Whether the loop syncs once per step.
        executions: Graph executions over all steps.
        executions_per_step: Executions per step (0 when the loop never syncs and never reads).
        transfers: Device-to-host transfers over all steps.
        compiles: Compilations, at most (each distinct graph once, then cached).
        clean_executions: Executions of the same loop with no host reads.
    """

    steps: int
    host_reads: int
    closure_reads: int
    graphs: int
    synced: bool
    executions: int
    executions_per_step: float
    transfers: int
    compiles: int
    clean_executions: int

    @property
    def status(self) -> Status:
        """``error`` when the loop never syncs, ``warning`` with host reads or several graphs, else ``ok``."""
        if not self.synced:
            return "error"
        return "warning" if self.host_reads or self.graphs > 1 else "ok"

    @property
    def headline(self) -> str:
        """Executions, transfers and compiles over all steps."""
        text = (
            f"{format_count(self.steps)} steps: {format_count(self.executions)} graph executions "
            f"({self.executions_per_step:g} per step), {format_count(self.transfers)} device-to-host transfers, "
            f"{format_count(self.compiles)} compiles"
        )
        if not self.synced:
            text += "; without a sync the graph grows by one step every step"
        elif self.executions > self.clean_executions:
            text += f"; {format_count(self.executions - self.clean_executions)} executions are host reads"
        return text

    def rows(self) -> tuple[Row, ...]:
        """The formulas with the inputs filled in."""
        n, r, c, g = self.steps, self.host_reads, self.closure_reads, self.graphs
        if self.synced:
            return (
                Row("graphs run per step", format_count(1 + r), f"1 + {r} host reads (each cuts the step's graph)"),
                Row("executions", format_count(self.executions), f"{n} steps · (1 + {r})"),
                Row("device-to-host transfers", format_count(self.transfers), f"{n} steps · ({r} + {c} closure reads)"),
                Row("compiles (at most)", format_count(self.compiles), f"{g} distinct graphs · (1 + {r}) pieces"),
                Row("executions with no host reads", format_count(self.clean_executions), f"{n} steps · 1"),
            )
        return (
            Row(
                "executions",
                format_count(self.executions),
                f"{n} steps · {r} reads + 1 final read" if r else "1, when a value is finally read",
            ),
            Row("device-to-host transfers", format_count(self.transfers), f"{n} steps · {r} reads + 1"),
            Row(
                "compiles (at most)",
                format_count(self.compiles),
                f"every read runs a graph one step longer: {n} · {r} + 1" if r else "1 graph holding all steps",
            ),
            Row("graph size", f"{format_count(n)} steps long", "nothing cuts it"),
            Row("executions with a sync per step", format_count(self.clean_executions), f"{n} steps · 1"),
        )


def compute_sync_cost(inputs: SyncCostInputs) -> SyncCostResult:
    """Executions, transfers and compiles of a training loop.

    Args:
        inputs: Steps, host reads and closure reads per step, distinct graphs, whether it syncs.

    Returns:
        The counts and the formulas behind them.

    Examples:
        >>> result = compute_sync_cost(SyncCostInputs(steps=5, host_reads=1))
        >>> result.executions, result.transfers, result.compiles
        (10, 5, 2)
        >>> compute_sync_cost(SyncCostInputs(steps=5, closure_reads=1)).executions
        5
        >>> compute_sync_cost(SyncCostInputs(steps=20, synced=False)).status
        'error'
    """
    n, r, c, g = inputs.steps, inputs.host_reads, inputs.closure_reads, inputs.graphs
    if inputs.synced:
        executions = n * (1 + r)
        transfers = n * (r + c)
        compiles = g * (1 + r)
    else:
        # Closures run at a sync, so without one they never run; the final read is one transfer.
        executions = n * r + 1
        transfers = n * r + 1
        compiles = n * r + 1 if r else 1
    return SyncCostResult(
        steps=n,
        host_reads=r,
        closure_reads=c,
        graphs=g,
        synced=inputs.synced,
        executions=executions,
        executions_per_step=executions / n,
        transfers=transfers,
        compiles=compiles,
        clean_executions=n,
    )


CALCULATOR = register_calculator(
    Calculator(
        name="sync-cost",
        title="torch_xla sync-cost calculator",
        summary="Graph executions, device-to-host transfers and compiles of a torch_xla training loop over N steps.",
        explainer="torch-xla-lazy-tensor#counting-the-cost",
        inputs=SyncCostInputs,
        fields=(
            Field("steps", "int", "Steps", "How many training steps the loop runs.", default="1000", minimum=1),
            Field(
                "host-reads",
                "int",
                "Host reads per step",
                "Reads of a tensor value per step before the step's sync: .item(), print(loss), if loss > t:, "
                "a boolean-mask index.",
                default="0",
                minimum=0,
            ),
            Field(
                "closure-reads",
                "int",
                "Closure reads per step",
                "Reads per step inside xm.add_step_closure (after the step's graph ran).",
                default="0",
                minimum=0,
            ),
            Field(
                "graphs",
                "int",
                "Distinct graphs",
                "How many different graphs the step traces: distinct input shapes, special scalars 0/1/-1 "
                "against other values.",
                default="1",
                minimum=1,
            ),
            Field(
                "synced",
                "bool",
                "Syncs every step",
                "Whether the loop has a sync point per step (torch_xla.sync(), xm.mark_step(), MpDeviceLoader).",
                default="true",
            ),
        ),
        compute=compute_sync_cost,
        examples=(
            {"steps": "1000", "host-reads": "1", "closure-reads": "0", "graphs": "1", "synced": "true"},
            {"steps": "1000", "host-reads": "0", "closure-reads": "1", "graphs": "1", "synced": "true"},
            {"steps": "1000", "host-reads": "1", "closure-reads": "0", "graphs": "5", "synced": "true"},
            {"steps": "20", "host-reads": "0", "closure-reads": "0", "graphs": "1", "synced": "false"},
        ),
    )
)
