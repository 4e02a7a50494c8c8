# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp


@jax.jit
def chunked_sum(x, chunk: int = 4):
    if chunk > 1:  # error: JX101
        x = x.reshape(-1, 4).sum(axis=1)
    return x


print(chunked_sum(jnp.arange(16.0), 4))
