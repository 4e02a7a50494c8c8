# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def reset_first(x: jax.Array):
    x = x.at[0].set(0.0)
    x = x.at[1].add(2.0)
    return x.at[-1].multiply(10.0)


buf = jnp.zeros(4)
buf = buf.at[0].set(1.0)
reset_first(buf)
