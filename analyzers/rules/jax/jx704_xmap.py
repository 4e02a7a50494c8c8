"""JX704: ``jax.experimental.maps`` and ``xmap``, removed in JAX 0.4.31."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class ExperimentalMapsXmap(NameMigrationRule):
    """## What it does
    Finds imports of `jax.experimental.maps` (and `xmap` from it) and attribute uses of the module.

    ## Why is this bad?
    `xmap` was deprecated in JAX 0.4.26 and deleted in 0.4.31 together with the module: on JAX
    0.10.2 `from jax.experimental.maps import xmap` raises `ModuleNotFoundError: No module named
    'jax.experimental.maps'`. Named-axis programs are written with `jax.shard_map` over a mesh
    (or `jax.vmap` with `spmd_axis_name`).

    ## Example
    ```python
    import jax.numpy as jnp
    from jax.experimental.maps import xmap

    f = xmap(lambda x: x * 2, in_axes=["batch", ...], out_axes=["batch", ...])
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((8,), ("batch",))
    f = jax.shard_map(lambda x: x * 2, mesh=mesh, in_specs=P("batch"), out_specs=P("batch"))
    ```

    ## Fix safety
    The fix is display-only: `xmap`'s named axes and resources map onto a mesh and partition specs
    that only the author can choose.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.4.26 (deprecated), 0.4.31 (`xmap` deleted)
    """

    code = "JX704"
    raises = ("AttributeError", "ImportError", "ModuleNotFoundError", "TypeError", "DeprecationWarning")
    message = "removed jax.experimental.maps"
    explainer = "upgrading#xmap"
    fix_title = "Rewrite with `jax.shard_map`"
