# oracle: stdout equations: 200
import jax
import jax.numpy as jnp


@jax.jit
def grow(x):
    for _ in range(200):  # error: JX206
        x = x * 1.01
    return x


print("equations:", len(grow.trace(jnp.ones(3)).jaxpr.eqns))
