# oracle: stdout equations: 64
import jax
import jax.numpy as jnp


@jax.jit
def smooth(x):
    for i in range(64):  # error: JX206
        x = 0.5 * x
    return x


print("equations:", len(smooth.trace(jnp.ones(3)).jaxpr.eqns))
