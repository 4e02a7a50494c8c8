# oracle: raises AttributeError: module 'jax.experimental' has no attribute 'maps'
import jax
import jax.experimental
import jax.numpy as jnp


def make_mapped(fn):
    return jax.experimental.maps.xmap(fn, in_axes=["i", ...], out_axes=["i", ...])  # error: JX704


mapped = make_mapped(jnp.sin)
