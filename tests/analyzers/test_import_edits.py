"""Fixes that need a module the file does not import add the import, once, where imports go."""

from __future__ import annotations

import ast
import math
import os
import subprocess
import sys
import textwrap

import pytest
from xlalens.analyzers.api import fix_source
from xlalens.analyzers.core.diagnostics import Applicability, Diagnostic, Edit, Fix, Position, Range
from xlalens.analyzers.core.edits import import_edit
from xlalens.analyzers.core.fixes import apply_fixes
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.models.extensions import module_interpreter
from xlalens.analyzers.semantics.names import ModuleIndex


def _with_import(code: str, statement: str = "import jax") -> str:
    source = SourceText(code)
    edit = import_edit(ast.parse(code), source, statement)
    at = source.offset(edit.range.start)
    return code[:at] + edit.content + code[at:]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("x = 1\n", "import jax\nx = 1\n"),
        ('"""Doc."""\nx = 1\n', '"""Doc."""\nimport jax\nx = 1\n'),
        (
            '"""Doc."""\nfrom __future__ import annotations\nimport os\n\nx = 1\n',
            '"""Doc."""\nfrom __future__ import annotations\nimport os\nimport jax\n\nx = 1\n',
        ),
        (
            "import os\nfrom os import (\n    path,\n)\nx = 1\n",
            "import os\nfrom os import (\n    path,\n)\nimport jax\nx = 1\n",
        ),
        ("import os", "import os\nimport jax\n"),
        ("", "import jax\n"),
        ("import os\r\nx = 1\r\n", "import os\r\nimport jax\r\nx = 1\r\n"),
    ],
    ids=["no-imports", "docstring", "future-and-imports", "multi-line-import", "no-final-newline", "empty", "crlf"],
)
def test_the_import_goes_after_the_leading_imports(code: str, expected: str) -> None:
    assert _with_import(code) == expected
    assert ast.parse(expected)


def _context(code: str, function: str | None = None) -> CheckContext:
    index = ModuleIndex(ast.parse(code), [])
    interpreter = module_interpreter(index)
    ctx = CheckContext(SourceText(code), "m.py", Settings(), index, interpreter.traced, interpreter)
    if function is not None:
        ctx.scope = next(scope for scope in index.functions if getattr(scope.node, "name", None) == function)
    return ctx


def test_module_spelling_prefers_the_files_own_names() -> None:
    assert _context("import jax.numpy as np_\n").module_spelling("jax.numpy", "jnp") == ("np_", ())
    assert _context("import jax\n").module_spelling("jax.numpy", "jnp") == ("jax.numpy", ())
    assert _context("import jax as j\n").module_spelling("jax.random", "jax.random") == ("j.random", ())


def test_module_spelling_adds_an_import_only_when_the_name_is_free() -> None:
    name, edits = _context("from jax import jit\n").module_spelling("jax.numpy", "jnp")
    assert name == "jnp" and [e.content for e in edits] == ["import jax.numpy as jnp\n"]
    assert _context("jnp = None\n").module_spelling("jax.numpy", "jnp") is None
    code = "from jax import jit\ndef f(jnp):\n    return jnp\n"
    assert _context(code, "f").module_spelling("jax.numpy", "jnp") is None, "a parameter named jnp shadows it"


def test_identical_edits_of_two_fixes_are_applied_once() -> None:
    code = "a = 1\nb = 2\n"
    add = Edit(Range(Position(1, 0), Position(1, 0)), "import jax\n")

    def finding(line: int, new: str) -> Diagnostic:
        target = Edit(Range(Position(line, 4), Position(line, 5)), new)
        return Diagnostic(
            code="JX106",
            message="m",
            path="m.py",
            range=target.range,
            fix=Fix("f", Applicability.SAFE, (add, target)),
        )

    text, applied = apply_fixes(code, [finding(1, "jax.x"), finding(2, "jax.y")], unsafe=False)
    assert text == "import jax\na = jax.x\nb = jax.y\n"
    assert len(applied) == 2


NUMPY_IN_JIT = textwrap.dedent(
    """\
    import numpy as np
    from jax import jit


    @jit
    def squash(x):
        return np.tanh(x * 2.0) * np.exp(x * 0.5)


    print(round(float(squash(np.ones(4))[0]), 4))
    """
)


def test_the_jx103_fix_adds_jax_numpy_and_the_fixed_program_runs() -> None:
    result = fix_source(NUMPY_IN_JIT, "m.py", unsafe=True)
    assert [d.code for d in result.fixed] == ["JX103", "JX103"]
    assert result.source.splitlines()[:3] == ["import numpy as np", "from jax import jit", "import jax.numpy as jnp"]
    assert "jnp.tanh(x * 2.0) * jnp.exp(x * 0.5)" in result.source
    pytest.importorskip("jax")
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    before = subprocess.run([sys.executable, "-c", NUMPY_IN_JIT], capture_output=True, text=True, env=env)
    assert "TracerArrayConversionError" in before.stderr
    after = subprocess.run([sys.executable, "-c", result.source], capture_output=True, text=True, env=env, check=True)
    assert after.stdout.strip() == str(round(math.tanh(2.0) * math.exp(0.5), 4))
