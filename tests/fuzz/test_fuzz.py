"""Fuzzing on a fixed budget: mutated fixtures and generated programs never crash a check or corrupt a fix.

``benchmarks/fuzz.py`` runs the same mutations over a real corpus for as long as asked; here a
fixed seed and a small count keep CI fast and any failure replayable (the test id names the seed
and the mutant's number).
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest
from xlalens.analyzers import check_source, fix_source
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.project import runner

from .mutations import mutants

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "rules"
SOURCES = sorted(path for path in FIXTURES.glob("*.py") if not path.name.endswith(".fixed.py"))
SEED = 22
MUTANTS = 120


def _internal_errors(data: bytes) -> list[str]:
    result = runner.check_stdin(data, "fuzzed.py", Settings())
    return [d.message for d in result.diagnostics if d.code == "E900"]


def test_mutated_fixtures_never_end_in_an_internal_error() -> None:
    sources = [path.read_bytes() for path in SOURCES]
    failures = [(name, errors) for name, data in mutants(sources, MUTANTS, SEED) if (errors := _internal_errors(data))]
    assert not failures, failures[:3]


def _pyflakes_messages(text: str) -> Counter[str]:
    from pyflakes.api import check
    from pyflakes.reporter import Reporter

    class _Collect(Reporter):
        def __init__(self) -> None:
            self.found: Counter[str] = Counter()

        def flake(self, message: object) -> None:
            # By the name a finding is about: a fix that moves an unused import to its new module
            # (jax.core.Primitive -> jax.extend.core.Primitive) adds nothing.
            names = tuple(str(arg).rsplit(".", 1)[-1] for arg in getattr(message, "message_args", ()))
            self.found[f"{type(message).__name__}{names}"] += 1

        def syntaxError(self, *args: object) -> None:
            self.found["syntax-error"] += 1

        def unexpectedError(self, *args: object) -> None:
            self.found["unexpected-error"] += 1

    reporter = _Collect()
    check(text, "fixed.py", reporter)
    return reporter.found


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.stem)
def test_every_fix_keeps_the_file_valid_idempotent_and_adds_no_pyflakes_finding(path: Path) -> None:
    pytest.importorskip("pyflakes")
    text = path.read_text(encoding="utf-8")
    fixed = fix_source(text, str(path), unsafe=True)
    if fixed.source == text:
        return
    ast.parse(fixed.source)
    assert fix_source(fixed.source, str(path), unsafe=True).source == fixed.source, "a second run changed the text"
    added = _pyflakes_messages(fixed.source) - _pyflakes_messages(text)
    assert not added, f"the fixes added pyflakes findings: {dict(added)}"


def test_generated_programs_never_crash_a_check_or_a_fix() -> None:
    hypothesis = pytest.importorskip("hypothesis")
    hypothesmith = pytest.importorskip("hypothesmith")

    @hypothesis.settings(
        max_examples=40,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(hypothesis.HealthCheck),
    )
    @hypothesis.given(hypothesmith.from_grammar())
    def check(program: str) -> None:
        text = "import jax\nimport jax.numpy as jnp\n" + program
        assert not [d for d in check_source(text, "generated.py") if d.code == "E900"]
        fixed = fix_source(text, "generated.py", unsafe=True)
        if fixed.source != text:
            ast.parse(fixed.source)

    check()
