"""NaN, infinite and huge numbers, and bindings that refer to themselves, are unknown values, not crashes."""

from __future__ import annotations

import pytest
from xlalens.analyzers import check_source

HUGE = str(2**64)  # a literal: the interpreter folds literals, not every power

ABSURD = {
    "arange_nan": "import jax.numpy as jnp\nimport jax\n\n@jax.jit\ndef f(x):\n    return jnp.arange(float('nan'))\n",
    "arange_inf_stop": "import jax.numpy as jnp\ny = jnp.arange(0, float('inf'))\n",
    "arange_nan_step": "import jax.numpy as jnp\ny = jnp.arange(0, 10, float('nan'))\n",
    "arange_huge": "import jax.numpy as jnp\ny = jnp.arange(10**400)\n",
    "range_2_64_traced_loop": (
        f"import jax\n\n@jax.jit\ndef f(x):\n    for i in range({HUGE}):\n        x = x * 2 + i\n    return x\n"
    ),
    "range_2_64_driver_loop": (
        "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    return x\n\n"
        f"for i in range({HUGE}):\n    f(jnp.zeros(i))\n"
    ),
    "slice_of_huge_dimension": (
        "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    return x\n\n"
        f"for i in range(3):\n    f(jnp.zeros({HUGE})[i:])\n"
    ),
    "self_referential_binding": "import jax\nx = x.shape\nx.reshape(3)\njax.jit(x)\n",
    "mutually_referential_bindings": "import jax\na = b.c\nb = a.d\na.e()\njax.jit(b)(1)\n",
}


@pytest.mark.parametrize("name", sorted(ABSURD))
def test_absurd_values_raise_nothing(name):
    codes = [d.code for d in check_source(ABSURD[name], f"{name}.py")]
    assert not [c for c in codes if c.startswith("E9")], codes


def test_a_long_but_machine_sized_loop_is_still_reported():
    text = "import jax\n\n@jax.jit\ndef f(x):\n    for i in range(10_000):\n        x = x * 2 + i\n    return x\n"
    assert "JX206" in [d.code for d in check_source(text, "unrolled.py")]
