"""xlalens analyzers: source text in, diagnostics and fixes out.

Pure: imports neither the language server libraries nor the code it analyzes.
"""

from __future__ import annotations

from xlalens.analyzers.api import FixResult as FixResult
from xlalens.analyzers.api import check_source as check_source
from xlalens.analyzers.api import fix_source as fix_source
from xlalens.analyzers.model import Applicability as Applicability
from xlalens.analyzers.model import Diagnostic as Diagnostic
from xlalens.analyzers.model import Edit as Edit
from xlalens.analyzers.model import Fix as Fix
from xlalens.analyzers.rule import Rule as Rule
from xlalens.analyzers.settings import Settings as Settings
