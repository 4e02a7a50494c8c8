# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def chunked_sum(x, chunk: int = 4):
    assert x.shape[0] % chunk == 0
    if chunk > 1:
        x = x.reshape(-1, chunk).sum(axis=1)
    return x


print(chunked_sum(jnp.arange(16.0)))
