"""The bridge from the rule registry to the explainer site: pages list the rules that link to them.

``explainers`` knows nothing about rules, so every front end that renders or serves pages (the
``explain`` command, the language server's ``xlalens.explain`` command) gets the catalog from here.
"""

from __future__ import annotations

from xlalens.analyzers import registry
from xlalens.analyzers.output.sarif import summary
from xlalens.explainers.pages_catalog import RuleEntry
from xlalens.explainers.web import ExplainerServer


def rule_entries() -> tuple[RuleEntry, ...]:
    """Every registered rule as the pages see it: code, name, summary and ``page#section``."""
    return tuple(
        RuleEntry(code=rule.code, name=rule.name(), summary=summary(rule), explainer=rule.explainer)
        for rule in registry.all_rules()
    )


def start_explainer_server(port: int = 0) -> ExplainerServer:
    """Serve the explainer site on 127.0.0.1 from a background thread (port 0 picks a free port).

    Raises:
        OSError: when the port is taken.
    """
    return ExplainerServer(port, rule_entries()).start()
