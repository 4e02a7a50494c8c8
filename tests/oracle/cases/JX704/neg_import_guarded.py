# oracle: runs
import jax
import jax.numpy as jnp

try:
    from jax.experimental.maps import xmap
except ImportError:
    xmap = None

batched = jax.vmap(jnp.sin) if xmap is None else xmap(jnp.sin, in_axes=["b"], out_axes=["b"])
print(batched(jnp.ones(3)))
