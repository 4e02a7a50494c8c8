"""Every torch_xla row of the migration table is true of torch_xla 2.9 in the oracle venv.

The same check as ``tests/analyzers/test_migration_table.py`` for JAX: removed names raise when
reached, deprecated ones still work and warn when called (torch_xla's ``@deprecated`` warns on the
call, not on the attribute read, so callables are called without arguments), replacements exist.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.knowledge.migrations import NAME_MIGRATIONS, NEWEST_KNOWN, Library, NameMigration
from xlalens.analyzers.rules._migrations import judge

from tests.oracle_torch_xla.test_oracle_torch_xla import TIMEOUT_S, probe_environment, require_oracle

# Reaches (and, for the deprecated callables, calls) each name once; prints {name: verdict}.
PROBE = """
import importlib, json, sys, warnings

def reach(name, module, call):
    parts = name.split(".")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if module:
                importlib.import_module(name)
            else:
                for cut in range(len(parts) - 1, 0, -1):
                    try:
                        obj = importlib.import_module(".".join(parts[:cut]))
                        break
                    except ImportError:
                        continue
                for part in parts[cut:]:
                    obj = getattr(obj, part)
                if call:
                    obj()
        except (AttributeError, ImportError) as error:
            return f"error: {type(error).__name__}"
    if any(issubclass(w.category, DeprecationWarning) for w in caught):
        return "warn"
    return "ok"

names = json.loads(sys.argv[1])
print(json.dumps({name: reach(name, module, call) for name, module, call in names}))
"""

ROWS = [entry for entry in NAME_MIGRATIONS if entry.library is Library.TORCH_XLA]


def _expected(entry: NameMigration) -> str:
    severity = judge(NEWEST_KNOWN[entry.library], entry.deprecated, entry.removed)
    assert severity is not None, f"{entry.old}: not even deprecated at the newest known release"
    return "error" if severity is Severity.ERROR else "warn"


@pytest.mark.oracle
def test_every_torch_xla_row_matches_torch_xla() -> None:
    python = require_oracle()
    names = [(entry.old, entry.module, not entry.module and _expected(entry) == "warn") for entry in ROWS]
    replacements = sorted({(name, entry.module) for entry in ROWS for name in (entry.new, entry.compat) if name})
    names += [(name, module, False) for name, module in replacements]
    proc = subprocess.run(
        [python, "-c", PROBE, json.dumps(names)],
        capture_output=True,
        text=True,
        env=probe_environment(),
        timeout=TIMEOUT_S,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    wrong = [
        f"{entry.old}: the table says {_expected(entry)}, torch_xla gives {found[entry.old]}"
        for entry in ROWS
        if not found[entry.old].startswith(_expected(entry))
    ]
    wrong += [f"replacement {name} gives {found[name]}" for name, _ in replacements if found[name] != "ok"]
    assert not wrong, "\n".join(wrong)
