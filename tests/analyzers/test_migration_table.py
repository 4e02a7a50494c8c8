"""Every JAX row of the migration table is true of the installed JAX.

At the newest release the table knows (the installed one), an old name the table calls removed must
raise when reached (``AttributeError`` for an attribute, ``ImportError`` for a module), one it calls
only deprecated must emit a ``DeprecationWarning`` and still work, and every replacement it names
must exist without a warning. The names are reached in one subprocess, each once (JAX's deprecated
attributes warn on their first access only). The torch_xla rows are checked the same way in
``tests/oracle_torch_xla/test_migration_table_torch_xla.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.engine.registry import all_rules
from xlalens.analyzers.knowledge.migrations import NAME_MIGRATIONS, NEWEST_KNOWN, USAGE_CHANGES, Library, NameMigration
from xlalens.analyzers.rules._migrations import judge

# Reaches each name once and prints {name: "error: <class>" | "warn" | "ok"} as JSON.
PROBE = """
import importlib, json, sys, warnings

def reach(name, module):
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
        except (AttributeError, ImportError) as error:
            return f"error: {type(error).__name__}"
    if any(issubclass(w.category, DeprecationWarning) for w in caught):
        return "warn"
    return "ok"

names = json.loads(sys.argv[1])
print(json.dumps({name: reach(name, module) for name, module in names}))
"""


def _expected(entry: NameMigration) -> str:
    severity = judge(NEWEST_KNOWN[entry.library], entry.deprecated, entry.removed)
    assert severity is not None, f"{entry.old}: not even deprecated at the newest known release"
    return "error" if severity is Severity.ERROR else "warn"


def _replacements(entry: NameMigration) -> set[str]:
    return {name for name in (entry.new, entry.from_import, entry.compat) if name}


def probe(python: str, entries: list[NameMigration], env: dict[str, str]) -> dict[str, str]:
    """How each old name and each replacement behaves in ``python``'s environment."""
    names = [(entry.old, entry.module) for entry in entries]
    names += sorted({(name, entry.module) for entry in entries for name in _replacements(entry)})
    proc = subprocess.run(
        [python, "-c", PROBE, json.dumps(names)], capture_output=True, text=True, env=env, timeout=600, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def check_rows(entries: list[NameMigration], found: dict[str, str]) -> list[str]:
    """The rows the installed package contradicts, as readable lines."""
    wrong = []
    for entry in entries:
        expected = _expected(entry)
        got = found[entry.old]
        if not got.startswith(expected):
            wrong.append(f"{entry.old}: the table says {expected}, the package gives {got}")
        for name in _replacements(entry):
            if found[name] != "ok":
                wrong.append(f"{entry.old}: its replacement {name} gives {found[name]}")
    return wrong


JAX_ROWS = [entry for entry in NAME_MIGRATIONS if entry.library is Library.JAX]


@pytest.mark.oracle
def test_every_jax_row_matches_the_installed_jax() -> None:
    jax = pytest.importorskip("jax")
    assert tuple(int(p) for p in jax.__version__.split(".")[:3]) == NEWEST_KNOWN[Library.JAX], (
        "the table was checked against another JAX release: update NEWEST_KNOWN and re-check every row"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_"))}
    env["JAX_PLATFORMS"] = "cpu"
    wrong = check_rows(JAX_ROWS, probe(sys.executable, JAX_ROWS, env))
    assert not wrong, "\n".join(wrong)


def test_every_row_belongs_to_a_registered_rule_and_is_ordered() -> None:
    codes = {rule.code for rule in all_rules()}
    for entry in NAME_MIGRATIONS:
        assert entry.code in codes, entry
        assert entry.removed is None or entry.deprecated <= entry.removed, entry
        assert entry.source, entry
    for change in USAGE_CHANGES.values():
        assert change.code in codes, change
        assert change.removed is None or change.deprecated <= change.removed, change
    olds = [entry.old for entry in NAME_MIGRATIONS]
    assert len(olds) == len(set(olds)), "an old name is listed twice"
