# oracle: raises ModuleNotFoundError: No module named 'jax.experimental.maps'
import jax.numpy as jnp
from jax.experimental.maps import xmap  # error: JX704


def per_example_loss(x):
    return jnp.sum(x**2)


batched = xmap(per_example_loss, in_axes=["batch", ...], out_axes=["batch"])
