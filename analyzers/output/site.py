"""The bridge from the rule registry to the explainer site: pages list the rules that link to them.

``explainers`` knows nothing about rules, so every front end that renders or serves pages (the
``explain`` command, the language server's ``xlalens.explain`` command) gets the catalog from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from xlalens.analyzers.engine import registry
from xlalens.analyzers.engine.rule import FixAvailability
from xlalens.explainers.calculators import get_calculator
from xlalens.explainers.links import calculator_url
from xlalens.explainers.pages_catalog import RuleEntry
from xlalens.explainers.web import ExplainerServer

# The families of the rule index, by code prefix (the hundreds of the code), as the README's table names them.
_FAMILIES = {
    "JX1": "JX1xx: traced values used as Python values",
    "JX2": "JX2xx: recompilation",
    "JX3": "JX3xx: loops and branches (scan, fori_loop, while_loop, cond, switch)",
    "JX4": "JX4xx: Pallas blocks, grids and index maps",
    "JX5": "JX5xx: sharding and shard_map",
    "JX6": "JX6xx: in-place updates, PRNG keys, donation and timing",
    "JX7": "JX7xx: JAX and Pallas upgrades",
    "TX1": "TX1xx: torch_xla host reads, syncs and control flow in the step",
    "TX2": "TX2xx: torch_xla shapes that recompile",
    "TX3": "TX3xx: torch_xla SPMD",
    "TX7": "TX7xx: torch_xla upgrades",
    "TX9": "TX9xx: torch and torch_xla releases",
}
_FIX = {
    FixAvailability.NONE: "no fix",
    FixAvailability.SOMETIMES: "fix sometimes available",
    FixAvailability.ALWAYS: "fix always available",
}


def rule_family(code: str) -> str:
    """The family heading of a rule code on the rule index.

    Examples:
        >>> rule_family("JX101")
        'JX1xx: traced values used as Python values'
    """
    return _FAMILIES.get(code[:3], f"{code[:3]}xx")


def rule_entries() -> tuple[RuleEntry, ...]:
    """Every registered rule as the pages see it: code, name, summary, ``page#section``, family and docs."""
    return tuple(
        RuleEntry(
            code=rule.code,
            name=rule.name(),
            summary=rule.summary(),
            explainer=rule.explainer,
            family=rule_family(rule.code),
            status=f"{rule.status.value}; {_FIX[rule.fix_availability]}",
            docs=rule.docs(),
        )
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
