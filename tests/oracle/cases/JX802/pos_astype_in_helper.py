# oracle: stdout computed in: float32
import jax
import jax.numpy as jnp


def accumulate_in_double(values):
    return jnp.sum(values.astype(jnp.float64))  # error: JX802


total = jax.jit(accumulate_in_double)(jnp.full(10_000_000, 0.1))
print("computed in:", total.dtype)
print("sum of ten million 0.1:", float(total))
