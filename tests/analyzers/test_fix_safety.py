"""A safe fix never changes working code, and a fix takes along the import it leaves unused."""

from __future__ import annotations

from xlalens.analyzers import check_source, fix_source
from xlalens.analyzers.core.diagnostics import Applicability
from xlalens.analyzers.core.orphaned_imports import remove_orphaned_imports

INFERRED_FROM_USE = """\
import jax


@jax.jit
def step(state, i):
    total = state.sum()
    state[i] = total
    return state
"""

AUX_DICT_AFTER_PMEAN = """\
import jax
import jax.numpy as jnp


def loss_fn(params, batch):
    loss = jnp.mean((batch @ params) ** 2)
    return loss, {"loss": loss}


def update(params, batch):
    (loss, metrics), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, batch)
    metrics = jax.lax.pmean(metrics, axis_name="batch")
    metrics["grad_norm"] = jnp.linalg.norm(grads)
    return params - 0.1 * grads, metrics
"""


def _jx601_fixes(text):
    return [d.fix.applicability for d in check_source(text, "m.py") if d.code == "JX601" and d.fix]


def test_an_array_inferred_only_from_its_use_gets_an_unsafe_fix():
    assert _jx601_fixes(INFERRED_FROM_USE) == [Applicability.UNSAFE]
    assert fix_source(INFERRED_FROM_USE, "m.py").source == INFERRED_FROM_USE


def test_an_array_built_by_jax_numpy_gets_a_safe_fix():
    text = "import jax.numpy as jnp\n\nx = jnp.zeros(3)\nx[0] = 1.0\n"
    assert _jx601_fixes(text) == [Applicability.SAFE]


def test_the_safe_fix_never_rewrites_a_dict_item_assignment():
    assert fix_source(AUX_DICT_AFTER_PMEAN, "m.py").source == AUX_DICT_AFTER_PMEAN


EXPERIMENTAL_SHARD_MAP = """\
import jax
import jax.experimental.shard_map
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((1,), ("x",))
f = jax.experimental.shard_map.shard_map(lambda a: a * 2, mesh, P("x"), P("x"), check_rep=False)
y = f(jnp.ones(16))
"""


def test_the_jx508_fix_removes_the_import_it_leaves_unused():
    fixed = fix_source(EXPERIMENTAL_SHARD_MAP, "m.py", unsafe=True)
    assert [d.code for d in fixed.fixed] == ["JX508"]
    assert "import jax.experimental.shard_map\n" not in fixed.source
    assert "jax.shard_map(lambda a: a * 2, mesh=mesh" in fixed.source
    compile(fixed.source, "m.py", "exec")


def test_an_import_that_alone_binds_a_name_still_read_stays():
    only_binding = EXPERIMENTAL_SHARD_MAP.replace("import jax\nimport jax.experimental", "import jax.experimental")
    fixed = fix_source(only_binding, "m.py", unsafe=True)
    assert "import jax.experimental.shard_map\n" in fixed.source


def test_imports_the_user_left_unused_are_not_touched():
    before = "import os\nimport sys\nimport json\nprint(sys.argv)\n"
    after = "import os\nimport sys\nimport json\nprint(1)\n"
    assert remove_orphaned_imports(before, after) == "import os\nimport json\nprint(1)\n"


def test_an_import_sharing_its_line_stays():
    before = "import sys; x = 1\nprint(sys.argv)\n"
    after = "import sys; x = 1\nprint(1)\n"
    assert remove_orphaned_imports(before, after) == after


def test_crlf_survives_the_removal():
    before = "import sys\r\nimport os\r\nprint(sys.argv, os)\r\n"
    after = "import sys\r\nimport os\r\nprint(os)\r\n"
    assert remove_orphaned_imports(before, after) == "import os\r\nprint(os)\r\n"


def test_the_import_goes_in_a_file_with_python_3_12_syntax_too():
    # tokamax's attention module: a `type` statement, and the old shard_map imported from its module.
    newer = EXPERIMENTAL_SHARD_MAP.replace(
        "import jax.experimental.shard_map\n", "from jax.experimental import shard_map\n"
    ).replace("jax.experimental.shard_map.shard_map(", "shard_map.shard_map(")
    newer += "type Residuals = tuple[jax.Array, jax.Array]\n\n\ndef first[T](xs: list[T]) -> T:\n    return xs[0]\n"
    fixed = fix_source(newer, "m.py", unsafe=True)
    assert [d.code for d in fixed.fixed] == ["JX508"]
    assert "from jax.experimental import shard_map\n" not in fixed.source
    assert "jax.shard_map(lambda a: a * 2, mesh=mesh" in fixed.source and "type Residuals" in fixed.source
