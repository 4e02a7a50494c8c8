"""Every rule fixture: the analyzer reports exactly the marked lines, and fixes match the goldens.

Run ``pytest tests/analyzers/test_rule_fixtures.py --update-goldens`` to rewrite the
``.fixed.py`` files after a deliberate change, then review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xlalens.analyzers.api import check_source, fix_source
from xlalens.analyzers.core.diagnostics import MESSAGE_LIMIT, Diagnostic
from xlalens.analyzers.core.fixes import parses

from .markers import expected_markers, fixture_files

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "rules"
CASES = fixture_files(FIXTURES)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_reports_exactly_the_marked_lines(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    diagnostics = check_source(text, str(path))
    found = {(d.line, d.code) for d in diagnostics}
    expected = expected_markers(text)
    assert found == expected, f"missing: {sorted(expected - found)}; unexpected: {sorted(found - expected)}"
    assert_headlines_fit(diagnostics)


def assert_headlines_fit(diagnostics: list[Diagnostic]) -> None:
    """Every message is one line of at most 100 characters: the rest belongs in the detail."""
    long = [
        f"{d.code} line {d.line} ({len(d.message)} characters): {d.message}"
        for d in diagnostics
        if len(d.message) > MESSAGE_LIMIT or "\n" in d.message
    ]
    assert not long, "headlines over the limit:\n" + "\n".join(long)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_fixes_match_golden(path: Path, request: pytest.FixtureRequest) -> None:
    text = path.read_text(encoding="utf-8")
    result = fix_source(text, str(path))
    golden = path.with_name(path.stem + ".fixed.py")
    if request.config.getoption("--update-goldens"):
        if result.fixed:
            golden.write_text(result.source, encoding="utf-8")
        elif golden.exists():
            golden.unlink()
    if not result.fixed:
        assert not golden.exists(), f"{golden.name} exists but no fix applies any more"
        return
    assert parses(result.source)
    assert golden.exists(), f"run with --update-goldens to create {golden.name}"
    assert result.source == golden.read_text(encoding="utf-8")
    assert fix_source(result.source, str(path)).source == result.source, "fixing twice changed the text again"
