# oracle: raises AttributeError: jax.core.get_aval was deprecated in JAX v0.8.2 and removed in JAX v0.10.0
import jax.numpy as jnp
from jax import core


def describe(x):
    aval = core.get_aval(x)  # error: JX712
    return f"{aval.dtype}{list(aval.shape)}"


print(describe(jnp.ones((2, 3))))
