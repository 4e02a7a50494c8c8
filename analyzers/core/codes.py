"""The codes xlalens reports that are not rules: one table for the engine, the runner, the renderers and the server.

Rule codes (``JX101``, ``TX102``) belong to rule classes and their registry. The codes here come from
the machinery around the rules: a file that could not be read, parsed or analyzed (``E9xx``), and the
evidence ``xlalens logs`` finds in a run's log (``LX``). None of them is a rule, so none takes a fix,
and the ``E`` codes cannot be silenced with ``# noqa`` on a line (they are about the whole file).

Examples:
    >>> NON_RULE_CODES[SYNTAX_ERROR].name
    'syntax-error'
    >>> is_file_level(NEWER_SYNTAX), is_file_level(LOG_RECOMPILE), is_file_level("JX101")
    (True, False, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

INTERNAL_ERROR = "E900"
"""The analysis of a file raised: reported with the stage, and the run goes on."""
IO_ERROR = "E902"
"""A file could not be read or decoded."""
LIMIT_EXCEEDED = "E903"
"""A file too large or too deeply nested to analyze within xlalens's limits."""
NEWER_SYNTAX = "E998"
"""A file parses only with a newer Python than the one running xlalens."""
SYNTAX_ERROR = "E999"
"""A file does not parse."""
LOG_HOST_READ = "LX101"
LOG_UNEXPECTED_EXECUTION = "LX102"
LOG_COMPILE = "LX201"
LOG_RECOMPILE = "LX202"
LOG_TRACE_CACHE_MISS = "LX301"
LOG_UNPLACED_COMPILE = "LX302"


@dataclass(frozen=True, slots=True)
class NonRuleCode:
    """A code that no rule owns.

    Attributes:
        code: ``E999``.
        name: What it reports, in kebab case like a rule's name (``syntax-error``).
        file_level: Whether it describes a whole file (no ``# noqa`` line can silence it).
    """

    code: str
    name: str
    file_level: bool


NON_RULE_CODES: Mapping[str, NonRuleCode] = MappingProxyType(
    {
        entry.code: entry
        for entry in (
            NonRuleCode(INTERNAL_ERROR, "internal-error", True),
            NonRuleCode(IO_ERROR, "io-error", True),
            NonRuleCode(LIMIT_EXCEEDED, "over-limit", True),
            NonRuleCode(NEWER_SYNTAX, "needs-newer-python", True),
            NonRuleCode(SYNTAX_ERROR, "syntax-error", True),
            NonRuleCode(LOG_HOST_READ, "host-read-before-sync", False),
            NonRuleCode(LOG_UNEXPECTED_EXECUTION, "unexpected-execution-in-compile", False),
            NonRuleCode(LOG_COMPILE, "graph-compiled", False),
            NonRuleCode(LOG_RECOMPILE, "graph-recompiled", False),
            NonRuleCode(LOG_TRACE_CACHE_MISS, "tracing-cache-miss", False),
            NonRuleCode(LOG_UNPLACED_COMPILE, "compile-without-source-line", False),
        )
    }
)
"""Every non-rule code by its name."""


def is_file_level(code: str) -> bool:
    """Whether ``code`` is a non-rule code about a whole file, which takes no ``# noqa`` edit."""
    entry = NON_RULE_CODES.get(code)
    return entry is not None and entry.file_level
