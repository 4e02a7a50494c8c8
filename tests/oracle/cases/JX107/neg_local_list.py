# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def unrolled(x):
    outs = []
    for i in range(3):
        x = x * 2.0
        outs.append(x)
    return jnp.stack(outs)


unrolled(jnp.arange(3.0))
