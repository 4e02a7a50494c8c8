"""The names ``xlalens.analyzers`` promises resolve, in a fresh interpreter, to the objects their modules define."""

from __future__ import annotations

import subprocess
import sys


def test_every_exported_name_resolves() -> None:
    code = (
        "import xlalens.analyzers as a\n"
        "missing = [n for n in a.__all__ if getattr(a, n, None) is None]\n"
        "assert not missing, missing\n"
        "assert {'check_source', 'fix_source', 'annotate_source', 'Diagnostic', 'Settings'} <= set(a.__all__)\n"
        "print(a.check_source('import jax\\n@jax.jit\\ndef f(x):\\n    if x > 0:\\n        return x\\n')[0].code)\n"
        "print([n.label for n in a.annotate_source('import jax.numpy as jnp\\nw = jnp.zeros((2, 3))\\n')])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.splitlines() == ["JX101", "['f32[2,3]']"]
