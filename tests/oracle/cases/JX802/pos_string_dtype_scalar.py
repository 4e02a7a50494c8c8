# oracle: stdout computed in: float32
import jax.numpy as jnp

PRECISION = "float64"


def kahan_free_sum(n):
    total = jnp.zeros((), dtype=PRECISION)  # error: JX802
    step = jnp.float64(1e-8)  # error: JX802
    for _ in range(n):
        total = total + step
    return total + 1.0


result = kahan_free_sum(3)
print("computed in:", result.dtype)
print("small steps survive:", float(result) != 1.0)
