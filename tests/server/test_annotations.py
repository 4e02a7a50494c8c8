"""Inferred dtype[shape] annotations: the engine API behind inlay hints, and ``xlalens annotate``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from xlalens.analyzers.annotate import annotate_source, render_inline
from xlalens.analyzers.core.diagnostics import Position


def _labels(code: str) -> list[tuple[int, str, str]]:
    return [(a.position.line, a.target, a.label) for a in annotate_source(textwrap.dedent(code))]


def test_constructors_with_known_shapes_and_dtypes() -> None:
    code = """\
        import jax
        import jax.numpy as jnp
        w = jnp.zeros((128, 512))
        b = jnp.ones(512, dtype=jnp.bfloat16)
        wt = w.T
        s = jnp.asarray(1.0)
        a, (c, n) = jnp.eye(3, dtype=jnp.int8), (jnp.arange(4), 5)
        if (m := jnp.full((2, 2), True)) is not None:
            pass

        @jax.jit
        def step(x):
            y = jnp.zeros((4, 4))
            return x + y
    """
    assert _labels(code) == [
        (3, "w", "f32[128,512]"),
        (4, "b", "bf16[512]"),
        (5, "wt", "f32[512,128]"),
        (6, "s", "~f32[]"),
        (7, "a", "i8[3,3]"),
        (7, "c", "i32[4]"),
        (8, "m", "bool[2,2]"),
        (13, "y", "f32[4,4]"),
    ]


def test_only_certain_values_are_annotated() -> None:
    code = """\
        import jax.numpy as jnp
        import numpy as np
        x: jnp.ndarray = jnp.zeros(3)
        u = jnp.zeros(3) + unknown
        r = jnp.zeros(3).reshape(-1, 1)
        h = np.zeros(3)
        w = jnp.zeros(3)
        for i in range(3):
            fixed = jnp.zeros((2, 2))
            carried = w
            w = jnp.concatenate([w, w])
            z = jnp.zeros(i)

        def reset():
            global g
            g = jnp.ones(5)

        g = jnp.zeros(3)
        again = g
    """
    assert _labels(code) == [
        (5, "r", "f32[3,1]"),
        (7, "w", "f32[3]"),
        (9, "fixed", "f32[2,2]"),
        (16, "g", "f32[5]"),
        (18, "g", "f32[3]"),
    ]


def test_files_without_jax_and_files_that_do_not_parse() -> None:
    assert annotate_source("x = 1\n") == []
    with pytest.raises(SyntaxError):
        annotate_source("import jax\ndef f(:\n")
    with pytest.raises(SyntaxError):
        annotate_source("x = 1\0\n")


def test_positions_are_code_points_and_render_inline_inserts_labels() -> None:
    code = "import jax.numpy as jnp\né = 'ü'; ω = jnp.zeros((2,))\n"
    [annotation] = annotate_source(code)
    assert annotation.position == Position(2, 10)
    assert render_inline(code, [annotation]).splitlines()[1] == "é = 'ü'; ω: f32[2] = jnp.zeros((2,))"


def _annotate(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("XLALENS_")}
    return subprocess.run(
        [sys.executable, "-m", "xlalens.analyzers.cli.main", "annotate", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )


def test_annotate_command_prints_plain_text_when_piped(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text("import jax.numpy as jnp\n\nw = jnp.zeros((128, 512))\n", encoding="utf-8")
    result = _annotate("model.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "import jax.numpy as jnp\n\nw: f32[128,512] = jnp.zeros((128, 512))\n"
    assert "\x1b[" not in result.stdout


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.py", None, "xlalens: error: cannot read missing.py: No such file or directory"),
        ("folder", "", "xlalens: error: cannot read folder: Is a directory"),
        ("broken.py", b"import jax\ndef f(:\n", "xlalens: error: cannot annotate broken.py: line 2: SyntaxError:"),
        ("latin.py", b"import jax\nx = '\xe9'\n", "xlalens: error: latin.py: "),
        ("newer.py", b"import jax\nif True: type Shape = tuple[int, ...]\n", "needs Python >= 3.12"),
    ],
)
def test_annotate_command_errors(tmp_path: Path, name: str, content: bytes | str | None, message: str) -> None:
    if content == "":
        (tmp_path / name).mkdir()
    elif isinstance(content, bytes):
        (tmp_path / name).write_bytes(content)
    result = _annotate(name, cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, "one clear message, no traceback"
    assert result.stdout == ""


def test_random_samplers_have_the_shape_and_dtype_they_are_given() -> None:
    # Checked under JAX 0.10.2: none of these is weakly typed, and each has exactly the given shape.
    code = """\
        import jax
        import jax.numpy as jnp
        key = jax.random.key(0)
        w = jax.random.normal(key, (64, 32))
        h = jax.random.uniform(key, shape=(4,), dtype=jnp.float16)
        ids = jax.random.randint(key, (8, 16), 0, 100)
        small = jax.random.randint(key, (2,), 0, 3, jnp.int8)
        mask = jax.random.bernoulli(key, 0.9, (8, 16))
        t = jax.random.truncated_normal(key, -2.0, 2.0, (3, 3))
        p = jax.random.bernoulli(key, 0.5)
    """
    assert _labels(code) == [
        (4, "w", "f32[64,32]"),
        (5, "h", "f16[4]"),
        (6, "ids", "i32[8,16]"),
        (7, "small", "i8[2]"),
        (8, "mask", "bool[8,16]"),
        (9, "t", "f32[3,3]"),
    ]
