"""The bridge from the rule registry to the explainer site: pages list the rules that link to them.

``explainers`` knows nothing about rules, so every front end that renders or serves pages (the
``explain`` command, the language server's ``xlalens.explain`` command) gets the catalog from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from xlalens.analyzers.engine import registry
from xlalens.explainers.calculators import get_calculator
from xlalens.explainers.links import calculator_url
from xlalens.explainers.pages_catalog import RuleEntry
from xlalens.explainers.web import ExplainerServer


def rule_entries() -> tuple[RuleEntry, ...]:
    """Every registered rule as the pages see it: code, name, summary and ``page#section``."""
    return tuple(
        RuleEntry(code=rule.code, name=rule.name(), summary=rule.summary(), explainer=rule.explainer)
        for rule in registry.all_rules()
    )


def start_explainer_server(port: int = 0) -> ExplainerServer:
    """Serve the explainer site on 127.0.0.1 from a background thread (port 0 picks a free port).

    Raises:
        OSError: when the port is taken.
    """
    return ExplainerServer(port, rule_entries()).start()


def calculator_link(base_url: str, calculator: tuple[str, Mapping[str, Any]] | None) -> str | None:
    """The live calculator prefilled with a diagnostic's values, or ``None`` when there is none.

    Values the calculator cannot take (a zero block, a dimension no field formats, a value of an
    unexpected type) leave the link out rather than point at an error or stop the report.
    """
    if calculator is None:
        return None
    name, values = calculator
    try:
        query = get_calculator(name).query(values)
    except (ArithmeticError, AttributeError, LookupError, TypeError, ValueError):
        # UnknownCalculatorError is a KeyError and CalculatorInputError a ValueError; the others come
        # from field formatters handed values of a shape they do not take.
        return None
    return calculator_url(base_url, name, query)
