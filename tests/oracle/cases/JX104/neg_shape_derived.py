# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def halves(x):
    n = x.shape[0]
    first = x[: n // 2]
    second = x[n // 2 :]
    buf = jnp.zeros((n, x.ndim))
    for i in range(len(x)):
        buf = buf.at[i, 0].set(x[i])
    return first, second, buf, jnp.arange(x.size).reshape(x.shape[0], -1)


halves(jnp.arange(4.0))
