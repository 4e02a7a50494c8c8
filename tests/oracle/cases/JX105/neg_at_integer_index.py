# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def bump(x):
    i = jnp.argmax(x)
    return x.at[i].add(1.0), x.at[jnp.array([0, 2])].set(0.0), x[jnp.array([2, 0])]


bump(jnp.array([1.0, -2.0, 3.0]))
