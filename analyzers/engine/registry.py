"""The rule registry: code -> rule class, and rule selection by code prefix.

Rules register themselves with :func:`register_rule` when their module is imported;
:func:`all_rules` imports every module under ``xlalens.analyzers.rules`` once.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Sequence

from xlalens.analyzers.core.codes import NON_RULE_CODES, matches_non_rule_code
from xlalens.analyzers.engine.rule import Rule, RuleStatus

_RULES: dict[str, type[Rule]] = {}
_REDIRECTS: dict[str, str] = {}
_FAMILIES: tuple[str, ...] = ("JX", "TX")
_SELECTIONS: dict[tuple[object, ...], tuple[type[Rule], ...]] = {}
"""Selections already decided, keyed by the selectors and the registry's contents: every file of a run
asks for the same one, and deciding it walks every selector against every rule (milliseconds a file)."""
_loaded = False


class UnknownSelectorError(ValueError):
    """A ``--select``/``--ignore`` entry that matches no rule."""


def register_rule(rule: type[Rule]) -> type[Rule]:
    """Add ``rule`` to the registry; usable as a class decorator.

    Raises:
        ValueError: if another rule already has the same code.
    """
    existing = _RULES.get(rule.code)
    if existing is not None and existing is not rule:
        raise ValueError(
            f"rule code {rule.code} is taken by {existing.__name__}; known codes are: {', '.join(sorted(_RULES))}"
        )
    _RULES[rule.code] = rule
    return rule


def register_redirect(old_code: str, new_code: str) -> None:
    """Keep a renamed rule's old code working as a selector for its new code."""
    if new_code not in _RULES:
        raise ValueError(f"redirect target {new_code} is not a known rule: {', '.join(sorted(_RULES))}")
    _REDIRECTS[old_code] = new_code


def _load_builtin_rules() -> None:
    global _loaded
    if _loaded:
        return
    package = importlib.import_module("xlalens.analyzers.rules")
    for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + "."):
        importlib.import_module(info.name)
    _loaded = True


def all_rules() -> list[type[Rule]]:
    """Every registered rule, ordered by code."""
    _load_builtin_rules()
    return [_RULES[code] for code in sorted(_RULES)]


def get_rule(code: str) -> type[Rule]:
    """The rule with ``code`` (following redirects).

    Raises:
        KeyError: naming the known codes when ``code`` is unknown.
    """
    _load_builtin_rules()
    code = _REDIRECTS.get(code.upper(), code.upper())
    try:
        return _RULES[code]
    except KeyError:
        raise KeyError(f"unknown rule code {code!r}; known codes are: {', '.join(sorted(_RULES))}") from None


def _expand(selector: str) -> list[type[Rule]]:
    selector = selector.strip().upper()
    selector = _REDIRECTS.get(selector, selector)
    if selector == "ALL":
        return all_rules()
    matched = [rule for rule in all_rules() if rule.code.startswith(selector)]
    # E9xx and LX codes are not rules, but users see them and may ignore them.
    if not matched and selector not in _FAMILIES and not matches_non_rule_code(selector):
        valid = ", ".join(["ALL", *_FAMILIES, *sorted(_RULES), *sorted(NON_RULE_CODES)])
        raise UnknownSelectorError(f"unknown rule selector {selector!r}; valid selectors are prefixes of: {valid}")
    return matched


def validate_selectors(selectors: Iterable[str]) -> None:
    """Raise :class:`UnknownSelectorError` if any selector matches no rule."""
    for selector in selectors:
        _expand(selector)


def _decide(layer: Iterable[tuple[bool, Iterable[str]]]) -> dict[str, bool]:
    """Code -> enabled for one layer of selectors; the longest matching selector wins, ties go to the later."""
    chosen: dict[str, tuple[int, bool]] = {}
    for enabled, selectors in layer:
        for selector in selectors:
            specificity = 0 if selector.strip().upper() == "ALL" else len(selector.strip())
            for rule in _expand(selector):
                previous = chosen.get(rule.code)
                if previous is None or specificity >= previous[0]:
                    chosen[rule.code] = (specificity, enabled)
    return {code: enabled for code, (_, enabled) in chosen.items()}


def fixable_codes(fixable: Sequence[str] | None = None, unfixable: Sequence[str] = ()) -> frozenset[str]:
    """The codes whose fixes ``--fix`` applies: ``fixable`` (default all) minus ``unfixable``, ruff-style.

    Examples:
        >>> sorted(fixable_codes(["JX10"], ["JX106"]))[:3]
        ['JX101', 'JX102', 'JX103']
        >>> "JX106" in fixable_codes(["JX10"], ["JX106"]), "JX106" in fixable_codes(unfixable=["JX1"])
        (False, False)
    """
    decided = _decide([(True, ["ALL"] if fixable is None else fixable), (False, unfixable)])
    return frozenset(code for code, enabled in decided.items() if enabled)


def select_rules(
    select: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
    extend_select: Sequence[str] = (),
    preview: bool = False,
    layers: Sequence[tuple[Sequence[str], Sequence[str]]] = (),
) -> list[type[Rule]]:
    """The rules that run for a selection, ruff-style.

    ``select`` replaces the default (all stable rules), ``extend_select`` adds to it and
    ``ignore`` removes; the longest matching selector wins, so ``--select JX --ignore JX1
    --extend-select JX105`` keeps JX105. Each of ``layers`` is a further ``(extend_select,
    ignore)`` pair decided the same way and applied on top (command-line flags over a
    configuration file). Preview rules run when ``preview`` is set or when selected by their
    full code.

    Examples:
        >>> [r.code for r in select_rules(select=["JX10"], ignore=["JX102"])][:3]
        ['JX101', 'JX103', 'JX104']
        >>> "JX101" in [r.code for r in select_rules(ignore=["JX1"], layers=[(["JX101"], [])])]
        True
    """
    _load_builtin_rules()
    key = (
        tuple(_RULES.items()),
        tuple(_REDIRECTS.items()),
        None if select is None else tuple(select),
        tuple(ignore),
        tuple(extend_select),
        preview,
        tuple((tuple(extend), tuple(dropped)) for extend, dropped in layers),
    )
    chosen = _SELECTIONS.get(key)
    if chosen is None:
        chosen = _SELECTIONS[key] = tuple(_decide_selection(select, ignore, extend_select, preview, layers))
    return list(chosen)


def _decide_selection(
    select: Sequence[str] | None,
    ignore: Sequence[str],
    extend_select: Sequence[str],
    preview: bool,
    layers: Sequence[tuple[Sequence[str], Sequence[str]]],
) -> list[type[Rule]]:
    decided = _decide([(True, ["ALL"] if select is None else select), (True, extend_select), (False, ignore)])
    for layer_extend, layer_ignore in layers:
        decided.update(_decide([(True, layer_extend), (False, layer_ignore)]))

    explicit = {s.strip().upper() for s in [*(select or ()), *extend_select, *(s for e, _ in layers for s in e)]}
    rules = []
    for code, enabled in sorted(decided.items()):
        rule = _RULES[code]
        if not enabled or rule.status is RuleStatus.REMOVED:
            continue
        if rule.status is RuleStatus.PREVIEW and not (preview or code in explicit):
            continue
        rules.append(rule)
    return rules
