# oracle: raises TracerIntegerConversionError: The __index__() method was called on traced array
import jax
import jax.numpy as jnp


def triangle(n):
    total = jnp.int32(0)
    for k in range(n):  # error: JX104
        total = total + k
    return total


jax.lax.map(triangle, jnp.array([1, 2, 3]))
