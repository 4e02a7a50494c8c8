"""The torch_xla oracle tier: real torch_xla and the analyzer must agree on every case file.

torch_xla 2.9.0 needs torch 2.9.0 exactly, so it runs from its own venv
(``scripts/torch_xla_oracle_env.sh`` builds it outside the checkout and prints its Python; the test
script exports that path as ``XLALENS_TORCH_XLA_PYTHON``). Each case runs in a process of its own
(a forked child of a fork server that has imported torch and torch_xla, ``tests/forkserver.py``;
a fresh interpreter for a case that writes the environment) with ``PJRT_DEVICE=CPU``, twice: with
``XLALENS_ORACLE_STEPS`` at 2 and at 5. The harness reports metrics after each run, and the header
``# oracle: signal<op>value ...`` is checked against them:

* ``executions-per-step``, ``transfers-per-step``, ``compiles-per-step``, ``graph-growth-per-step``,
  ``optimizer-steps-per-step``, ``idle-optimizer-steps-per-step``: the difference between the two
  runs in ``ExecuteTime`` samples, ``TransferFromDeviceTime`` samples, the ``UncachedCompile``
  counter, the largest ``TensorsGraphSize``, the optimizer steps taken and the idle ones (steps in
  which no parameter the optimizer holds had a gradient, so no weight changed), divided by the 3
  extra steps (setup and warm-up cancel out);
* ``compiles``: ``UncachedCompile`` in the 5-step run;
* ``timed-share``: with ``timed=NAME``, the seconds the case measured itself (the module-level
  ``NAME``, or a dotted path from it such as ``trainer.step_times``: a number or a list summed)
  divided by the seconds during which some graph of the run was executing (``ExecuteTime``). A
  clock read before the device has run the graph measures a small share of it; one that waits
  for the device covers most of it. Timing checks alone run the case once, with 5 steps;
* ``fallback=aten::op``: the op ran as a CPU fallback;
* ``cpu-load=ok`` or ``cpu-load=ErrorClass``: the case writes at least one file (it runs in an empty
  directory), and ``torch.load`` of each in a process that never imports torch_xla succeeds, or
  (for ``ErrorClass``) raises that exception for at least one of them; the harness prints each
  outcome, so ``# oracle-output:`` can check the message;
* ``devices=N``: the case runs with ``CPU_NUM_DEVICES=N`` (N virtual CPU devices, for SPMD; the
  case calls ``xr.use_spmd()`` itself), and the analyzer checks it with ``device-count = N``;
* ``raises=ExceptionClass``: the case must raise this exception (its class name), and its message
  must start with the text of the second line, ``# oracle-message: <text>`` (the rest of that line,
  verbatim; the line is required with ``raises=`` and allowed only with it).

A case may also say what the process prints, for notices torch_xla writes instead of raising (its
C++ runtime prints some deprecations to stdout): a line ``# oracle-output: <text>`` requires the
text in the output (stdout and stderr) of every run, ``# oracle-output-absent: <text>`` forbids it.

Every case that does not declare ``raises=`` must run to the end without an exception. A case
with only ``devices=``/``raises=`` checks runs once (it measures nothing per step); one with a
metric check runs twice, as above.

``test_analyzer_agrees`` checks that xlalens reports exactly the case's ``# error:`` markers.
Without the venv the tier fails, unless ``XLALENS_SKIP_TORCH_XLA=1`` is set outside CI (then it
skips and says why).
"""

from __future__ import annotations

import json
import operator
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests import forkserver
from tests.analyzers.test_rule_fixtures import assert_headlines_fit

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
HARNESS = HERE / "harness.py"
RESULT_PREFIX = "XLALENS-TX-ORACLE "
STEP_COUNTS = (2, 5)
TIMEOUT_S = 300
PRELOADED = (
    "torch",
    "torch.nn",
    "torch.optim",
    "torch_xla",
    "torch_xla.core.xla_model",
    "torch_xla.debug.metrics",
    "torch_xla.runtime",
)
"""What the fork servers import before forking: none of it starts the PJRT runtime."""
CODES = (
    "TX101",
    "TX102",
    "TX103",
    "TX104",
    "TX201",
    "TX202",
    "TX203",
    "TX301",
    "TX302",
    "TX303",
    "TX304",
    "TX701",
    "TX702",
    "TX703",
    "TX704",
    "TX705",
    "TX706",
    "TX707",
    "TX801",
    "TX802",
)
MIN_CASES = 3

_HEADER = re.compile(r"#\s*oracle:\s*(?P<checks>.+)$")
_CHECK = re.compile(r"(?P<signal>[a-z-]+)(?P<op>>=|<=|=|>|<)(?P<value>\S+)")
_MESSAGE = re.compile(r"#\s*oracle-message: (?P<message>.+)$")
_OUTPUT = re.compile(r"^#\s*oracle-output(?P<absent>-absent)?: (?P<text>.+)$", re.M)
_MARKER = re.compile(r"#\s*error:\s*([A-Z]{2}\d{3}(?:\s*,\s*[A-Z]{2}\d{3})*)")
_OPERATORS: dict[str, Callable[[Fraction, Fraction], bool]] = {
    "=": operator.eq,
    ">": operator.gt,
    "<": operator.lt,
    ">=": operator.ge,
    "<=": operator.le,
}
_SETTINGS = {"devices": r"[1-9]\d*", "raises": r"[A-Za-z_]\w*", "timed": r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"}
_CLEARED_VARIABLES = ("CPU_NUM_DEVICES", "PYTHONOPTIMIZE", "XLALENS_ORACLE_TIMED")
"""Variables the test sets per case, never inherited from the test runner's environment."""
_SINGLE_RUN = frozenset({"timed-share"})
"""Checks one run answers (the others compare the 2-step and 5-step runs, or need both to run)."""
_PER_STEP = {
    "executions-per-step": "executions",
    "transfers-per-step": "transfers",
    "compiles-per-step": "compiles",
    "graph-growth-per-step": "graph_size",
    "optimizer-steps-per-step": "optimizer_steps",
    "idle-optimizer-steps-per-step": "idle_optimizer_steps",
}


@dataclass(frozen=True)
class Check:
    """One ``signal<op>value`` of a header."""

    signal: str
    op: str
    value: str

    def __str__(self) -> str:
        return f"{self.signal}{self.op}{self.value}"


@dataclass(frozen=True)
class Case:
    """One case file."""

    path: Path
    checks: tuple[Check, ...]
    markers: frozenset[tuple[int, str]]
    message: str | None = None
    output: tuple[tuple[str, bool], ...] = ()
    """``(text, present)`` pairs the run's output must (or must not) contain."""

    def setting(self, signal: str) -> str | None:
        """The value of a ``devices=``/``raises=`` check, if the header has one."""
        return next((c.value for c in self.checks if c.signal == signal), None)

    @property
    def devices(self) -> int | None:
        value = self.setting("devices")
        return None if value is None else int(value)

    @property
    def metric_checks(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.signal not in _SETTINGS)

    @property
    def step_counts(self) -> tuple[int, ...]:
        per_step = any(c.signal not in _SINGLE_RUN for c in self.metric_checks)
        return STEP_COUNTS if per_step else STEP_COUNTS[-1:]

    @property
    def code(self) -> str:
        return self.path.parent.name

    @property
    def case_id(self) -> str:
        return f"{self.code}/{self.path.stem}"

    @property
    def positive(self) -> bool:
        return self.path.stem.startswith("pos_")


def load_case(path: Path) -> Case:
    """Read a case's header and markers; a malformed header is an error in the case."""
    text = path.read_text(encoding="utf-8")
    match = _HEADER.match(text.split("\n", 1)[0])
    if match is None:
        raise ValueError(f"{path}: the first line must be '# oracle: signal=value ...'")
    checks = []
    for item in match.group("checks").split():
        parsed = _CHECK.fullmatch(item)
        known = (*_PER_STEP, "compiles", "fallback", "cpu-load", *_SINGLE_RUN, *_SETTINGS)
        if parsed is None or parsed.group("signal") not in known:
            raise ValueError(f"{path}: unknown oracle check {item!r}")
        signal, op, value = parsed.group("signal"), parsed.group("op"), parsed.group("value")
        if signal in _SETTINGS and (op != "=" or not re.fullmatch(_SETTINGS[signal], value)):
            raise ValueError(f"{path}: {item!r} must be {signal}={_SETTINGS[signal]}")
        checks.append(Check(signal, op, value))
    if any(c.signal == "timed" for c in checks) != any(c.signal == "timed-share" for c in checks):
        raise ValueError(f"{path}: timed=NAME and a timed-share check go together")
    lines = text.split("\n", 2)
    message_match = _MESSAGE.match(lines[1]) if len(lines) > 1 else None
    message = message_match.group("message") if message_match else None
    if (message is None) != all(c.signal != "raises" for c in checks):
        raise ValueError(f"{path}: '# oracle-message: <text>' goes on line 2 exactly when the header has raises=")
    markers = set()
    for number, line in enumerate(text.splitlines(), start=1):
        found = _MARKER.search(line)
        if found:
            markers.update((number, code.strip()) for code in found.group(1).split(","))
    output = tuple((found.group("text"), not found.group("absent")) for found in _OUTPUT.finditer(text))
    return Case(path, tuple(checks), frozenset(markers), message, output)


def load_cases(directory: Path) -> list[Case]:
    """Every ``pos_*.py``/``neg_*.py`` case under ``directory/<CODE>/``."""
    return [load_case(p) for p in sorted(directory.glob("*/*.py")) if p.stem.startswith(("pos_", "neg_"))]


CASES = load_cases(CASES_DIR)
REALISTIC_DIR = HERE / "realistic"
REALISTIC_CASES = load_cases(REALISTIC_DIR)
"""Programs written as torch_xla training code is written: train functions over loaders, trainer
classes, module-level scripts, schedules, real ``nn`` modules under SPMD."""
REALISTIC_MISSES: frozenset[str] = frozenset(
    line.strip()
    for line in (REALISTIC_DIR / "known_misses.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
)
"""Realistic cases torch_xla confirms where the analyzer does not yet report exactly the case's
markers (a positive it misses, or a look-alike it flags): strict xfails, so a case that starts
passing must leave the list."""
_REALISTIC_MISS = pytest.mark.xfail(strict=True, reason="listed in realistic/known_misses.txt")
ORACLE_PARAMS = [
    *(pytest.param(c, id=c.case_id) for c in CASES),
    *(pytest.param(c, id="realistic:" + c.case_id) for c in REALISTIC_CASES),
]
ANALYZER_PARAMS = [
    *(pytest.param(c, id=c.case_id) for c in CASES),
    *(
        pytest.param(
            c,
            id="realistic:" + c.case_id,
            marks=[_REALISTIC_MISS] if c.case_id in REALISTIC_MISSES else [],
        )
        for c in REALISTIC_CASES
    ),
]


def oracle_python() -> str | None:
    """The oracle venv's interpreter, if it is there."""
    given = os.environ.get("XLALENS_TORCH_XLA_PYTHON")
    if given:
        return given if Path(given).is_file() else None
    venv = Path(os.environ.get("XLALENS_TORCH_XLA_VENV", Path.home() / ".cache/xlalens/torch_xla-2.9.0"))
    python = venv / "bin" / "python"
    return str(python) if (venv / ".xlalens-torch-xla-ready").is_file() and python.is_file() else None


def require_oracle() -> str:
    """The interpreter, or a loud failure (a skip only when asked for, and never in CI)."""
    python = oracle_python()
    if python is not None:
        return python
    reason = (
        "the torch_xla oracle venv is missing: run scripts/torch_xla_oracle_env.sh "
        "(it installs torch==2.9.0 and torch_xla==2.9.0 outside the checkout)"
    )
    if os.environ.get("XLALENS_SKIP_TORCH_XLA") == "1" and os.environ.get("CI") != "true":
        pytest.skip(f"XLALENS_SKIP_TORCH_XLA=1: {reason}")
    pytest.fail(reason)


def probe_environment(**settings: str) -> dict[str, str]:
    """The environment of a torch_xla probe: the runner's without torch_xla's own variables, on the CPU
    client, with ``settings`` (``CPU_NUM_DEVICES``) on top."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XLA_", "PT_XLA_", "PJRT_"))}
    env.update(PJRT_DEVICE="CPU", TF_CPP_MIN_LOG_LEVEL="2", **settings)
    return env


def run_json_probe(python: str, script: str, payload: object, tag: str, **settings: str) -> Any:
    """Run ``script`` under the oracle venv's ``python`` with ``payload`` as JSON on its standard input,
    and return the JSON it printed last after ``tag``; a probe that fails or prints none fails the test."""
    proc = subprocess.run(
        [python, "-c", script],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=probe_environment(**settings),
        timeout=TIMEOUT_S,
        check=False,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith(tag)]
    assert proc.returncode == 0 and lines, (proc.stdout + proc.stderr)[-3000:]
    return json.loads(lines[-1].removeprefix(tag))


@dataclass(frozen=True)
class Run:
    """How one harness process ended."""

    returncode: int
    output: str
    result: dict[str, object] | None
    full_output: str = ""


def base_environment() -> dict[str, str]:
    """The environment every case starts from: the runner's, without torch_xla or per-case settings."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("XLA_", "PT_XLA_", "PJRT_")) and k not in _CLEARED_VARIABLES
    }
    env.update(PJRT_DEVICE="CPU", PYTHONHASHSEED="0", TF_CPP_MIN_LOG_LEVEL="2")
    return env


def case_settings(case: Case, steps: int) -> dict[str, str | None]:
    """What one run of ``case`` sets on top of :func:`base_environment` (``None``: unset)."""
    timed = case.setting("timed")
    return {
        "XLALENS_ORACLE_STEPS": str(steps),
        "CPU_NUM_DEVICES": None if case.devices is None else str(case.devices),
        "XLALENS_ORACLE_TIMED": timed,
    }


def run_case(python: str, case: Case, steps: int, servers: forkserver.ForkServerPool | None = None) -> Run:
    """Run ``case`` once in the oracle venv with ``steps`` steps (forked from ``servers`` when given)."""
    finished = forkserver.run_case(
        servers,
        python,
        HARNESS,
        case.path,
        env=base_environment(),
        settings=case_settings(case, steps),
        cwd=case.path.parent,
        timeout_s=TIMEOUT_S,
    )
    stdout, output = finished.stdout, finished.stdout + finished.stderr
    result = None
    for line in stdout.splitlines():
        if line.startswith(RESULT_PREFIX):
            result = json.loads(line[len(RESULT_PREFIX) :])
    return Run(finished.returncode, output[-3000:], result, output)


@pytest.fixture(scope="session")
def torch_xla_runs(request: pytest.FixtureRequest) -> Iterator[dict[tuple[str, int], Future[Run]]]:
    """Start both runs of every selected case at once (as many at a time as there are cores)."""
    selected = [
        item.callspec.params["case"]
        for item in request.session.items
        if getattr(item, "originalname", "") == "test_torch_xla_agrees"
        and hasattr(item, "callspec")
        and getattr(item, "module", None) is sys.modules[__name__]
    ]
    python = oracle_python()
    workers = max(2, os.cpu_count() or 1)
    pool = ThreadPoolExecutor(max_workers=workers)
    futures = {}
    servers = None
    if python is not None:
        # Servers start on first use: none start when nothing is selected or every case runs fresh.
        servers = forkserver.ForkServerPool(workers, python, HARNESS, PRELOADED, base_environment(), HERE)
        for case in selected:
            for steps in case.step_counts:
                futures[(str(case.path), steps)] = pool.submit(run_case, python, case, steps, servers)
    yield futures
    pool.shutdown(wait=False, cancel_futures=True)
    if servers is not None:
        servers.close()


def _measure(check: Check, short: dict[str, object], long: dict[str, object]) -> Fraction | str:
    if check.signal == "compiles":
        return Fraction(int(long["compiles"]))  # type: ignore[arg-type]
    if check.signal == "fallback":
        return ",".join(long["fallbacks"])  # type: ignore[arg-type]
    if check.signal == "timed-share":
        return Fraction(float(long["timed_s"])) / Fraction(float(long["busy_s"]))  # type: ignore[arg-type]
    if check.signal == "cpu-load":
        return _cpu_load(long["checkpoints"])  # type: ignore[arg-type]
    key = _PER_STEP[check.signal]
    extra_steps = STEP_COUNTS[1] - STEP_COUNTS[0]
    return Fraction(int(long[key]) - int(short[key]), extra_steps)  # type: ignore[call-overload]


def _cpu_load(checkpoints: dict[str, str]) -> str:
    """``ok`` when every file the case wrote loads without torch_xla, else the first error's class.

    Examples:
        >>> _cpu_load({"a.pt": "ok", "b.pt": "NotImplementedError: Could not run ..."})
        'NotImplementedError'
        >>> _cpu_load({}), _cpu_load({"a.pt": "ok"})
        ('no file written', 'ok')
    """
    if not checkpoints:
        return "no file written"
    failed = [outcome.split(":", 1)[0] for outcome in checkpoints.values() if outcome != "ok"]
    return failed[0] if failed else "ok"


@pytest.mark.oracle
@pytest.mark.parametrize("case", ORACLE_PARAMS)
def test_torch_xla_agrees(case: Case, torch_xla_runs: dict[tuple[str, int], Future[Run]]) -> None:
    python = require_oracle()
    runs = []
    for steps in case.step_counts:
        future = torch_xla_runs.get((str(case.path), steps))
        runs.append(future.result() if future is not None else run_case(python, case, steps))
    raises = case.setting("raises")
    for steps, run in zip(case.step_counts, runs, strict=True):
        assert run.returncode == 0 and run.result is not None, f"{case.case_id} with {steps} steps:\n{run.output}"
        raised, message = run.result.get("raised"), str(run.result.get("message", ""))
        if raises is None:
            assert raised is None, f"{case.case_id} raised {raised}: {message}"
        else:
            assert raised == raises, f"{case.case_id}: expected {raises}, got {raised}: {message}\n{run.output}"
            assert case.message is not None and message.startswith(case.message), (
                f"{case.case_id}: the message does not start with {case.message!r}:\n{message}"
            )
        for text, present in case.output:
            assert (text in run.full_output) == present, (
                f"{case.case_id} with {steps} steps: {text!r} {'missing from' if present else 'found in'} the output\n"
                f"{run.output}"
            )
    if not case.metric_checks:
        return
    short, long = runs[0].result, runs[-1].result
    assert short is not None and long is not None
    failed = []
    for check in case.metric_checks:
        measured = _measure(check, short, long)
        if check.signal == "fallback":
            ok = check.value in str(measured).split(",")
        elif check.signal == "cpu-load":
            ok = check.op == "=" and measured == check.value
        else:
            ok = _OPERATORS[check.op](measured, Fraction(check.value))  # type: ignore[arg-type]
        if not ok:
            shown = f"{float(measured):.4f}" if isinstance(measured, Fraction) else measured
            failed.append(f"{check}: measured {shown}")
    assert not failed, f"{case.case_id}: {'; '.join(failed)}\n2 steps: {short}\n5 steps: {long}"


@pytest.mark.parametrize("case", ANALYZER_PARAMS)
def test_analyzer_agrees(case: Case) -> None:
    from xlalens.analyzers.api import check_source
    from xlalens.analyzers.core.settings import Settings

    settings = Settings(device_count=case.devices)
    diagnostics = check_source(case.path.read_text(encoding="utf-8"), str(case.path), settings)
    got = {(d.line, d.code) for d in diagnostics}
    assert got == set(case.markers), f"missing {sorted(case.markers - got)}; unexpected {sorted(got - case.markers)}"
    assert_headlines_fit(diagnostics)


def test_rules_declare_the_errors_their_cases_raise() -> None:
    """A rule's ``raises`` names every exception its positive cases raise under torch_xla."""
    from xlalens.analyzers.engine.registry import get_rule

    missing = sorted(
        {
            (case.code, raised)
            for case in [*CASES, *REALISTIC_CASES]
            if case.positive
            and (raised := case.setting("raises")) is not None
            and raised not in get_rule(case.code).raises
        }
    )
    assert not missing, f"(rule, exception) pairs the rules do not declare: {missing}"


def test_case_counts() -> None:
    positives = Counter(c.code for c in CASES if c.positive)
    negatives = Counter(c.code for c in CASES if not c.positive)
    short = {c: (positives[c], negatives[c]) for c in CODES if min(positives[c], negatives[c]) < MIN_CASES}
    assert not short, f"codes with fewer than {MIN_CASES} positives or negatives: {short}"
    for case in CASES:
        own = any(code == case.code for _, code in case.markers)
        assert own == case.positive, f"{case.case_id}: a positive needs a marker for {case.code}, a negative none"


def test_realistic_cases() -> None:
    """Every realistic case is labelled like the others, and the known misses name real cases."""
    for case in REALISTIC_CASES:
        own = any(code == case.code for _, code in case.markers)
        assert own == case.positive, f"{case.case_id}: a positive needs a marker for {case.code}, a negative none"
    ids = {c.case_id for c in REALISTIC_CASES}
    assert ids >= REALISTIC_MISSES, f"known_misses.txt names no such case: {sorted(REALISTIC_MISSES - ids)}"


PAGES_DIR = HERE.parents[1] / "explainers" / "pages"
_NORUN_BLOCK = re.compile(r"^```python norun\n(?P<code>.*?)^```", re.S | re.M)
PAGE_BLOCKS = [
    pytest.param(code, id=f"{page}:block{index}")
    for page in ("torch-xla-lazy-tensor.md", "sharding.md", "upgrading.md")
    for index, code in enumerate(_NORUN_BLOCK.findall((PAGES_DIR / page).read_text(encoding="utf-8")))
]


@pytest.mark.oracle
@pytest.mark.parametrize("code", PAGE_BLOCKS)
def test_page_torch_xla_blocks_run(code: str, tmp_path: Path) -> None:
    """The explainer pages' torch_xla examples (``python norun`` there: no torch in the main venv) run here."""
    python = require_oracle()
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    proc = subprocess.run(
        [python, str(script)],
        capture_output=True,
        text=True,
        env=probe_environment(),
        cwd=tmp_path,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
