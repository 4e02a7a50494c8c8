"""JX710: ``jax.device_put_replicated`` and ``jax.device_put_sharded``, removed in JAX 0.10.0."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class DevicePutReplicatedOrSharded(NameMigrationRule):
    """## What it does
    Finds `jax.device_put_replicated` and `jax.device_put_sharded`, however they are imported.

    ## Why is this bad?
    Both belonged to the `pmap` world of per-device buffers. JAX 0.8.1 deprecated them and 0.10.0
    removed them from the public API: on JAX 0.10.2 `jax.device_put_replicated` raises
    `AttributeError: jax.device_put_replicated is deprecated; use jax.device_put instead.` One
    array with a `NamedSharding` over a mesh of the same devices does the job: replicated with
    `P()`, stacked shards with `P("x")` on the stacked axis.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    replicated = jax.device_put_replicated(jnp.ones(3), jax.devices())
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((len(jax.devices()),), ("x",))
    replicated = jax.device_put(jnp.stack([jnp.ones(3)] * len(jax.devices())), NamedSharding(mesh, P("x")))
    ```

    ## Fix safety
    The fix is display-only: the mesh and the spec that reproduce the old layout depend on how the
    result is used (`pmap` inputs want the stacked axis sharded).

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.8.1 (deprecated), 0.10.0 (removed)
    - docs.jax.dev/en/latest/migrate_pmap.html, "Drop-in replacements"
    """

    code = "JX710"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "removed device_put_replicated/device_put_sharded"
    explainer = "upgrading#replicated-and-sharded-device-puts"
    fix_title = "Use `jax.device_put` with a `NamedSharding`"
