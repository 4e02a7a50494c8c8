"""The transform registry names only APIs that exist, or old names an upgrade rule reports.

A transform the registry knows is traced like ``jax.jit``; a name JAX never had (``jax.pjit``) or
removed long ago would make the tracing rules treat broken code as working, without a word. Every
``jax.*`` name must resolve in the installed JAX, or be the old name of an upgrade-table entry (so
``JX7xx`` reports the spelling while the tracing rules still understand older code).
"""

from __future__ import annotations

import importlib
import warnings

import pytest
from xlalens.analyzers.knowledge.migrations import by_old_name
from xlalens.analyzers.knowledge.transforms import CALL_KINDS, PER_DEVICE_TRANSFORMS, known_transforms

jax = pytest.importorskip("jax")

NAMES = sorted({*known_transforms(), *CALL_KINDS, *PER_DEVICE_TRANSFORMS})


def _resolves(qualname: str) -> bool:
    parts = qualname.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for part in parts[cut:]:
                    obj = getattr(obj, part)
        except AttributeError:
            return False
        return True
    return False


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("jax.")])
def test_jax_transform_exists_or_is_reported(name: str) -> None:
    assert _resolves(name) or name in by_old_name(), (
        f"{name} is not in JAX {jax.__version__} and no upgrade rule reports it: drop it from "
        "knowledge/transforms.py or add it to knowledge/migrations.py"
    )


def test_removed_transform_names_are_reported() -> None:
    assert "jax.pjit" not in NAMES
    assert by_old_name()["jax.ad_checkpoint.checkpoint"].code == "JX711"
