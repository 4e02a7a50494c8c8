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

from collections.abc import Iterable, Mapping
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
        description: What it means and what to do, as ``xlalens rule CODE`` prints it.
    """

    code: str
    name: str
    file_level: bool
    description: str


NON_RULE_CODES: Mapping[str, NonRuleCode] = MappingProxyType(
    {
        entry.code: entry
        for entry in (
            NonRuleCode(
                INTERNAL_ERROR,
                "internal-error",
                True,
                "xlalens itself failed on this file: an exception (the message names the stage and, during "
                "analysis, the rule and line), a check that ran past its time limit, or a worker process that "
                "died. The other files of the run are still checked and the run exits 2. Please report it "
                "with the file.",
            ),
            NonRuleCode(
                IO_ERROR,
                "io-error",
                True,
                "The file could not be read or decoded (an unknown or non-text coding cookie such as "
                "`rot13`, bytes its encoding cannot decode, a FIFO or a device), or fixes could not be "
                "written back (a read-only file, or a file that changed meanwhile).",
            ),
            NonRuleCode(
                LIMIT_EXCEEDED,
                "over-limit",
                True,
                "Not analyzed: the file is over 2,000,000 characters or nests too deeply for Python's "
                "parser or xlalens to follow. Generated files are the usual case; exclude them.",
            ),
            NonRuleCode(
                NEWER_SYNTAX,
                "needs-newer-python",
                True,
                "Not analyzed: the file is valid only for a newer Python than the one running xlalens "
                "(Python 3.12's type parameters, `type` statements and PEP 701 f-strings are read on 3.11; "
                "newer syntax is not). Run xlalens with that Python, or ignore E998 for the file.",
            ),
            NonRuleCode(
                SYNTAX_ERROR,
                "syntax-error",
                True,
                "The file does not parse in any Python version xlalens knows: nothing in it is analyzed "
                "until the syntax error is fixed.",
            ),
            NonRuleCode(
                LOG_HOST_READ,
                "host-read-before-sync",
                False,
                "From `xlalens logs`: torch_xla executed a graph because this line read a tensor's value "
                "(`.item()`, `print`, a Python `if`) before the step's sync.",
            ),
            NonRuleCode(
                LOG_UNEXPECTED_EXECUTION,
                "unexpected-execution-in-compile",
                False,
                "From `xlalens logs`: torch_xla reported an unexpected execution inside `torch_xla.compile`, "
                "caused at this line.",
            ),
            NonRuleCode(
                LOG_COMPILE,
                "graph-compiled",
                False,
                "From `xlalens logs`: this line compiled a graph once more than the first step needs.",
            ),
            NonRuleCode(
                LOG_RECOMPILE,
                "graph-recompiled",
                False,
                "From `xlalens logs`: this line compiled several different graphs (different graph hashes): "
                "a recompile, usually a shape or a Python scalar that changes between steps.",
            ),
            NonRuleCode(
                LOG_TRACE_CACHE_MISS,
                "tracing-cache-miss",
                False,
                "From `xlalens logs`: JAX traced this jitted function again after its first trace "
                "(`jax_explain_cache_misses`); the message gives JAX's reason. The first trace is not reported.",
            ),
            NonRuleCode(
                LOG_UNPLACED_COMPILE,
                "compile-without-source-line",
                False,
                "From `xlalens logs`: JAX compiled a function more than once and the log gives no source line "
                "for it; reported at its line in the log.",
            ),
        )
    }
)
"""Every non-rule code by its name."""


def matches_non_rule_code(selector: str) -> bool:
    """Whether a ``--select``/``--ignore`` entry names (a prefix of) a non-rule code; ``ALL`` does not.

    Examples:
        >>> matches_non_rule_code("E998"), matches_non_rule_code("e9"), matches_non_rule_code("ALL")
        (True, True, False)
    """
    selector = selector.strip().upper()
    return selector != "ALL" and any(code.startswith(selector) for code in NON_RULE_CODES)


def ignored_by(code: str, selectors: Iterable[str]) -> bool:
    """Whether one of ``selectors`` (``ignore`` entries) turns the non-rule ``code`` off.

    ``ALL`` does not: a file that was not analyzed, or a crash, should not pass for a clean one
    unless its code is named.

    Examples:
        >>> ignored_by("E998", ["JX1", "E99"]), ignored_by("E999", ["ALL"])
        (True, False)
    """
    return any(matches_non_rule_code(selector) and code.startswith(selector.strip().upper()) for selector in selectors)


def is_file_level(code: str) -> bool:
    """Whether ``code`` is a non-rule code about a whole file, which takes no ``# noqa`` edit."""
    entry = NON_RULE_CODES.get(code)
    return entry is not None and entry.file_level
