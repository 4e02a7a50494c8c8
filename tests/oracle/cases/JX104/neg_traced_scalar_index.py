# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def pick(x, i):
    j = jnp.argmax(x)
    return x[i], x[j], jnp.take(x, i), x.at[i].get()


pick(jnp.arange(5.0), 2)
