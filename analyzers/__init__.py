"""xlalens analyzers: source text in, diagnostics and fixes out.

Pure: imports neither the language server libraries nor the code it analyzes.

The names below are imported on first use, so that a command that needs none of the checking
machinery (a warm ``xlalens check`` served from the cache, ``xlalens rule``) does not pay for it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xlalens.analyzers.annotate import annotate_source as annotate_source
    from xlalens.analyzers.api import FixResult as FixResult
    from xlalens.analyzers.api import check_source as check_source
    from xlalens.analyzers.api import fix_source as fix_source
    from xlalens.analyzers.core.diagnostics import Applicability as Applicability
    from xlalens.analyzers.core.diagnostics import Diagnostic as Diagnostic
    from xlalens.analyzers.core.diagnostics import Edit as Edit
    from xlalens.analyzers.core.diagnostics import Fix as Fix
    from xlalens.analyzers.core.settings import Settings as Settings
    from xlalens.analyzers.engine.rule import Rule as Rule

_EXPORTS = {
    "FixResult": "api",
    "check_source": "api",
    "fix_source": "api",
    "annotate_source": "annotate",
    "Applicability": "core.diagnostics",
    "Diagnostic": "core.diagnostics",
    "Edit": "core.diagnostics",
    "Fix": "core.diagnostics",
    "Rule": "engine.rule",
    "Settings": "core.settings",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
