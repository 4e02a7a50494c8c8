"""Rule docs are the only copy of each rule's documentation: check they are complete and true."""

from __future__ import annotations

import re

import pytest
from xlalens.analyzers.api import check_source
from xlalens.analyzers.engine.registry import all_rules
from xlalens.analyzers.engine.rule import DOC_SECTIONS, OPTIONAL_DOC_SECTIONS, FixAvailability, Rule

RULES = all_rules()
_CODE_BLOCK = re.compile(r"```python\n(?P<code>.*?)```", re.DOTALL)


def _section_positions(doc: str) -> dict[str, int]:
    return {s: doc.find(s) for s in (*DOC_SECTIONS, *OPTIONAL_DOC_SECTIONS) if doc.find(s) >= 0}


def _block_after(doc: str, heading: str) -> str:
    match = _CODE_BLOCK.search(doc, doc.index(heading))
    assert match is not None, f"no python block after {heading!r}"
    return match.group("code")


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_sections_present_and_ordered(rule: type[Rule]) -> None:
    doc = rule.docs()
    positions = _section_positions(doc)
    for section in DOC_SECTIONS:
        assert section in positions, f"{rule.code} lacks {section!r}"
    order = [s for s in (*DOC_SECTIONS, *OPTIONAL_DOC_SECTIONS) if s in positions]
    assert [positions[s] for s in order] == sorted(positions[s] for s in order)


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_fix_safety_documented(rule: type[Rule]) -> None:
    if rule.fix_availability is not FixAvailability.NONE:
        assert "## Fix safety" in rule.docs(), f"{rule.code} offers a fix but does not say how safe it is"
        assert rule.fix_title


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_example_triggers_and_use_instead_does_not(rule: type[Rule]) -> None:
    doc = rule.docs()
    example = _block_after(doc, "## Example")
    better = _block_after(doc, "Use instead:")
    assert rule.code in {d.code for d in check_source(example, "example.py")}
    assert rule.code not in {d.code for d in check_source(better, "use_instead.py")}


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_explainer_link_names_a_section(rule: type[Rule]) -> None:
    page, _, section = rule.explainer.partition("#")
    assert re.fullmatch(r"[a-z0-9-]+", page) and re.fullmatch(r"[a-z0-9-]+", section)
