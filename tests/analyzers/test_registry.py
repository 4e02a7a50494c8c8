"""The rule registry: unique codes, file names that match, selectors that reject typos."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from xlalens.analyzers.engine.registry import (
    UnknownSelectorError,
    all_rules,
    get_rule,
    register_rule,
    select_rules,
)

RULES = all_rules()


def test_codes_are_unique_and_files_are_named_after_them() -> None:
    codes = [r.code for r in RULES]
    assert len(codes) == len(set(codes))
    for rule in RULES:
        assert Path(inspect.getsourcefile(rule) or "").name.startswith(rule.code.lower() + "_")


def test_registering_a_taken_code_names_the_known_codes() -> None:
    clash = type("Clash", (RULES[0],), {})
    with pytest.raises(ValueError, match=r"known codes are: .*JX101"):
        register_rule(clash)


def test_prefix_selection_and_precedence() -> None:
    assert {r.code for r in select_rules(["JX1"])} == {r.code for r in RULES if r.code.startswith("JX1")}
    chosen = {r.code for r in select_rules(["JX"], ignore=["JX1"], extend_select=["JX105"])}
    assert "JX105" in chosen and "JX101" not in chosen and "JX601" in chosen


def test_unknown_selector_lists_valid_ones() -> None:
    with pytest.raises(UnknownSelectorError, match="JX101"):
        select_rules(["JX999"])
    with pytest.raises(KeyError, match="known codes"):
        get_rule("JX000")
