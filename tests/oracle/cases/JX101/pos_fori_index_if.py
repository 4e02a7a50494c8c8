# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp


def body(i, acc):
    if i % 2 == 0:  # error: JX101
        return acc + 1.0
    return acc


jax.lax.fori_loop(0, 4, body, jnp.float32(0.0))
