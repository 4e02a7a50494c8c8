# oracle: stdout equations: 100
import jax
import jax.numpy as jnp

STEPS = 100


@jax.jit
def shift(x):
    for i in range(STEPS):  # error: JX206
        x = x + 1.0
    return x


print("equations:", len(shift.trace(jnp.ones(3)).jaxpr.eqns))
