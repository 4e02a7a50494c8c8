"""Oracle tests: real JAX and the analyzer must agree on every case file.

``test_jax_agrees`` runs each case under real JAX (CPU, 8 fake devices) in a process
of its own and checks the case's ``# oracle:`` header. ``test_analyzer_agrees``
checks that the analyzer reports exactly the ``# error:`` markers of the case.
The cases run as forked children of fork servers (``tests/forkserver.py``) that have
imported jax, flax, equinox and optax once, one server per core, all selected cases
queued at the start; a case that writes the environment runs in a fresh interpreter.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from tests import forkserver
from tests.analyzers.test_rule_fixtures import assert_headlines_fit

_HERE = Path(__file__).resolve().parent


def _load_sibling(name: str, path: Path) -> ModuleType:
    """Load a helper module by path, without relying on sys.path or packages."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


cases_io = _load_sibling("xlalens_oracle_cases_io", _HERE / "cases_io.py")
Case = cases_io.Case
CASES: list[Case] = cases_io.all_cases()
GAP_CASES: list[Case] = cases_io.all_cases(_HERE / "gaps")
"""Positives JAX confirms but the analyzer does not model yet (see docs/architecture.md)."""
_GAP = pytest.mark.xfail(strict=True, reason="jax.grad-only tracing is not modelled yet")
REALISTIC_CASES: list[Case] = cases_io.all_cases(_HERE / "realistic")
"""Programs written as training code is written (helpers, classes, flax/equinox modules, configs)."""
REALISTIC_MISSES: frozenset[str] = frozenset(
    line.strip()
    for line in (_HERE / "realistic" / "known_misses.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
)
"""Realistic positives JAX confirms that the analyzer does not find yet: strict xfails, so a case
that starts passing must leave the list."""
_REALISTIC_MISS = pytest.mark.xfail(strict=True, reason="listed in realistic/known_misses.txt")
ALL_CASES = [
    *(pytest.param(c, id=c.case_id) for c in CASES),
    *(pytest.param(c, id="gap:" + c.case_id) for c in GAP_CASES),
    *(pytest.param(c, id="realistic:" + c.case_id) for c in REALISTIC_CASES),
]
ANALYZER_CASES = [
    *(pytest.param(c, id=c.case_id) for c in CASES),
    *(pytest.param(c, id="gap:" + c.case_id, marks=_GAP) for c in GAP_CASES),
    *(
        pytest.param(
            c,
            id="realistic:" + c.case_id,
            marks=[_REALISTIC_MISS] if c.case_id in REALISTIC_MISSES else [],
        )
        for c in REALISTIC_CASES
    ),
]
HARNESS = _HERE / "harness.py"
TIMEOUT_S = 120
PRELOADED = ("numpy", "jax", "jax.numpy", "jax.experimental.pallas", "flax.linen", "flax.nnx", "equinox", "optax")
"""What the fork servers import before forking: what the cases import most, none of it touching a device."""


@dataclass(frozen=True, slots=True)
class RunResult:
    """How one harness subprocess ended."""

    returncode: int
    stdout: str  # the case's own output, without the result line
    stderr: str
    result: dict[str, object] | None  # the parsed result line, if any


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["JAX_PLATFORMS"] = "cpu"
    env["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    env.setdefault("PYTHONHASHSEED", "0")
    return env


def _run_harness(path: Path, servers: forkserver.ForkServerPool | None = None) -> RunResult:
    """Run one case: forked from a server in ``servers``, or in a fresh interpreter."""
    finished = forkserver.run_case(
        servers, sys.executable, HARNESS, path, env=_environment(), settings={}, cwd=path.parent, timeout_s=TIMEOUT_S
    )
    returncode, stdout, stderr = finished.returncode, finished.stdout, finished.stderr
    kept: list[str] = []
    result: dict[str, object] | None = None
    for line in stdout.splitlines():
        if line.startswith(cases_io.RESULT_PREFIX):
            result = json.loads(line[len(cases_io.RESULT_PREFIX) :])
        else:
            kept.append(line)
    return RunResult(returncode, "\n".join(kept), stderr, result)


@pytest.fixture(scope="session")
def oracle_runs(request: pytest.FixtureRequest) -> Iterator[dict[str, Future[RunResult]]]:
    """Start the harness for every selected ``test_jax_agrees`` case at once.

    Skipped without jax, and under pytest-xdist (each worker then runs its own cases).
    """
    selected: list[Case] = []
    prefetch = importlib.util.find_spec("jax") is not None
    prefetch = prefetch and "PYTEST_XDIST_WORKER" not in os.environ
    for item in request.session.items if prefetch else ():
        callspec = getattr(item, "callspec", None)
        if getattr(item, "originalname", "") == "test_jax_agrees" and callspec is not None:
            selected.append(callspec.params["case"])
    workers = max(2, os.cpu_count() or 1)
    pool = ThreadPoolExecutor(max_workers=workers)
    # Servers start on first use: none start when nothing is selected or every case runs fresh.
    servers = forkserver.ForkServerPool(workers, sys.executable, HARNESS, PRELOADED, _environment(), _HERE)
    futures = {case.case_id: pool.submit(_run_harness, case.path, servers) for case in selected}
    yield futures
    pool.shutdown(wait=False, cancel_futures=True)
    servers.close()


def _describe(run: RunResult) -> str:
    return (
        f"exit status {run.returncode}\nresult: {run.result}\n"
        f"--- stdout ---\n{run.stdout[-3000:]}\n--- stderr ---\n{run.stderr[-3000:]}"
    )


@pytest.mark.oracle
@pytest.mark.parametrize("case", ALL_CASES)
def test_jax_agrees(case: Case, oracle_runs: dict[str, Future[RunResult]]) -> None:
    pytest.importorskip("jax")
    future = oracle_runs.get(case.case_id)
    run = future.result() if future is not None else _run_harness(case.path)
    assert run.result is not None, f"the harness printed no result line\n{_describe(run)}"
    raised = bool(run.result["raised"])
    mro = [str(name) for name in run.result["mro"]]  # type: ignore[union-attr]
    message = str(run.result["message"])
    expect = case.expectation
    if expect.kind == "raises":
        assert raised, f"expected {expect.exc_class} but the case ran clean\n{_describe(run)}"
        assert expect.exc_class in mro, f"expected {expect.exc_class}, got {mro[0]}: {message}\n{_describe(run)}"
        assert message.startswith(expect.text), f"message does not start with {expect.text!r}:\n{message}"
    else:
        assert not raised, f"expected a clean run, got {mro[0]}: {message}\n{_describe(run)}"
        assert run.returncode == 0, _describe(run)
        if expect.kind == "stdout":
            assert expect.text in run.stdout, f"{expect.text!r} not in the case's stdout\n{_describe(run)}"


@pytest.mark.parametrize("case", ANALYZER_CASES)
def test_analyzer_agrees(case: Case) -> None:
    from xlalens.analyzers.api import check_source

    text = case.path.read_text(encoding="utf-8")
    diagnostics = check_source(text, path=str(case.path))
    got = {(d.range.start.line, d.code) for d in diagnostics}
    expected = set(case.markers)
    missing = sorted(expected - got)
    extra = sorted(got - expected)
    assert not missing and not extra, f"{case.case_id}: missing (line, code) {missing}; unexpected {extra}"
    assert_headlines_fit(diagnostics)


def test_case_counts() -> None:
    positives = Counter(c.code for c in CASES if c.positive)
    negatives = Counter(c.code for c in CASES if not c.positive)
    short = {
        code: (positives[code], negatives[code])
        for code in cases_io.CODES
        if positives[code] < 4 or negatives[code] < 4
    }
    assert not short, f"codes with fewer than 4 positives or negatives: {short}"
    for case in CASES:
        if case.positive:
            assert case.markers, f"{case.case_id} is a positive with no '# error:' marker"
            assert any(code == case.code for _, code in case.markers), (
                f"{case.case_id} has no marker for its own code {case.code}"
            )
        else:
            assert not case.markers, f"{case.case_id} is a negative but has markers"


def test_realistic_misses_name_real_positives() -> None:
    ids = {c.case_id for c in REALISTIC_CASES if c.positive}
    assert ids >= REALISTIC_MISSES, f"known_misses.txt names no such positive: {sorted(REALISTIC_MISSES - ids)}"


def test_rules_declare_the_errors_their_cases_raise() -> None:
    """A rule's ``raises`` names every exception its positive cases raise under JAX (the expecting-code
    filter relies on it)."""
    from xlalens.analyzers.engine.registry import get_rule

    missing = sorted(
        {
            (case.code, case.expectation.exc_class)
            for case in [*CASES, *REALISTIC_CASES]
            if case.positive
            and case.expectation.kind == "raises"
            and case.expectation.exc_class not in get_rule(case.code).raises
        }
    )
    assert not missing, f"(rule, exception) pairs the rules do not declare: {missing}"
