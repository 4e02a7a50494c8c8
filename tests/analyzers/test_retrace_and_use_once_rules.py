"""The retracing rules (JX2xx) and the use-once rules (JX602, JX603, JX605) beyond their fixtures.

The fixtures check which lines are reported; these tests check what the reports carry: the
calculator inputs replay in the ``retrace`` calculator with the explanation the message quotes,
the hover shows the compile count and the prefilled calculator, and the unsafe fixes give code
that parses and is stable when fixed again.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xlalens.analyzers.api import check_source, fix_source
from xlalens.analyzers.core.diagnostics import Applicability, Diagnostic
from xlalens.analyzers.core.fixes import parses
from xlalens.explainers.calculators.retrace import RetraceInputs, compute_retrace, parse_calls
from xlalens.server.hover import diagnostic_markdown

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "rules"
RETRACE_CODES = ("JX201", "JX202", "JX203", "JX205")
_QUOTED = re.compile(r'JAX logs each call as "(?P<text>[^"]*)"')


def _diagnostics(code: str) -> list[Diagnostic]:
    path = FIXTURES / f"{code}.py"
    return [d for d in check_source(path.read_text(encoding="utf-8"), str(path)) if d.code == code]


@pytest.mark.parametrize("code", RETRACE_CODES)
def test_calculator_inputs_replay_as_a_miss_on_every_call(code: str) -> None:
    diagnostics = _diagnostics(code)
    with_inputs = [d for d in diagnostics if d.calculator is not None]
    assert with_inputs, f"no {code} finding carries calculator inputs"
    for diagnostic in with_inputs:
        assert diagnostic.calculator is not None
        name, inputs = diagnostic.calculator
        assert name == "retrace"
        result = compute_retrace(RetraceInputs(parse_calls(inputs["calls"])))
        assert result.calls == 3 and result.traces == 3, (diagnostic.message, inputs)


@pytest.mark.parametrize("code", ("JX202", "JX203"))
def test_message_quotes_the_calculators_explanation(code: str) -> None:
    checked = 0
    for diagnostic in _diagnostics(code):
        if diagnostic.calculator is None:
            continue
        result = compute_retrace(RetraceInputs(parse_calls(diagnostic.calculator[1]["calls"])))
        quoted = _QUOTED.search(diagnostic.detail)
        assert quoted is not None, diagnostic.detail
        assert quoted["text"] == " ".join(result.outcomes[1].explanation)
        checked += 1
    assert checked


def test_message_states_the_compile_count_for_the_loop() -> None:
    # The headline carries the total, the detail how it comes about.
    found = [(d.message, d.detail) for d in _diagnostics("JX201")]
    assert any(
        m.endswith(": 1,000 compiles") and "1 compile per iteration: 1,000 compiles for range(1000)" in t
        for m, t in found
    )
    found = [(d.message, d.detail) for d in _diagnostics("JX202")]
    # `data` has 100 rows, so `data[:i]` stops growing after 100 of the 999 iterations.
    assert any(
        m.endswith(": 100 compiles") and "1 compile per new shape: 100 compiles for range(1, 1000)" in t
        for m, t in found
    )
    assert any(
        m.endswith(": 1 compile per iteration") and "up to 1 compile per iteration of `for t in range(n)`" in t
        for m, t in found
    )


def test_hover_shows_the_count_the_replay_and_the_links() -> None:
    diagnostic = next(d for d in _diagnostics("JX202") if d.calculator is not None)
    markdown = diagnostic_markdown(diagnostic, "http://127.0.0.1:8711")
    assert "compiles for range(" in markdown
    assert "3 calls → 3 traces, 3 compiles" in markdown
    assert "/calc/retrace?calls=" in markdown
    assert "/jit-caching#shapes-that-change-every-iteration" in markdown


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("JX201", "g = jax.jit(functools.partial(scaled, a=2.0))  # error: JX201\nfor i in range(10):\n"),
        ("JX204", "reshape(x, shape=(2, 2))  # error: JX204"),
        ("JX602", "key, subkey2 = jax.random.split(key)\nbias = jax.random.normal(subkey2, (3,))"),
    ],
)
def test_unsafe_fixes_parse_and_are_stable(code: str, expected: str) -> None:
    path = FIXTURES / f"{code}.py"
    text = path.read_text(encoding="utf-8")
    assert all(d.fix is None or d.fix.applicability is Applicability.UNSAFE for d in check_source(text, str(path)))
    fixed = fix_source(text, str(path), unsafe=True)
    assert any(d.code == code for d in fixed.fixed)
    assert parses(fixed.source)
    assert expected in fixed.source
    assert fix_source(fixed.source, str(path), unsafe=True).source == fixed.source


def test_key_reuse_suggests_the_split_its_fix_applies() -> None:
    # Suggesting `subkey, subkey = split(subkey)` would hand both names the same half.
    source = (
        "import jax\n\n\ndef noise(subkey):\n"
        "    a = jax.random.normal(subkey, (3,))\n"
        "    b = jax.random.normal(subkey, (3,))\n"
        "    return a + b\n"
    )
    (finding,) = [d for d in check_source(source, "noise.py") if d.code == "JX602"]
    assert "`subkey, subkey2 = jax.random.split(subkey)`" in finding.detail
    assert finding.fix is not None and finding.fix.message == "Split `subkey` and pass `subkey2`"


def test_jit_hoisted_out_of_the_loop_is_no_longer_reported() -> None:
    path = FIXTURES / "JX201.py"
    fixed = fix_source(path.read_text(encoding="utf-8"), str(path), unsafe=True)
    remaining = {d.line for d in fixed.remaining if d.code == "JX201"}
    # Left: the comprehension and the decorated `def`, which have no mechanical fix.
    assert len(remaining) == 2


def test_removing_a_static_argument_is_only_suggested() -> None:
    diagnostics = _diagnostics("JX203")
    fixes = [d.fix for d in diagnostics if d.fix is not None]
    assert fixes and all(f.applicability is Applicability.DISPLAY_ONLY for f in fixes)
    path = FIXTURES / "JX203.py"
    text = path.read_text(encoding="utf-8")
    assert fix_source(text, str(path), unsafe=True).source == text


def test_donation_in_a_loop_names_the_runtime_error() -> None:
    detail = next(d.detail for d in _diagnostics("JX603") if "every iteration" in d.message)
    assert "Buffer has been deleted or donated" in detail
