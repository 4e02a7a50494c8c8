# oracle: stdout equations: 1
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def grow(x):
    return lax.fori_loop(0, 200, lambda i, x: x * 1.01, x)


print("equations:", len(grow.trace(jnp.ones(3)).jaxpr.eqns))
