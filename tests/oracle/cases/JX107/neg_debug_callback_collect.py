# oracle: stdout collected 2 values
import jax
import jax.numpy as jnp
import numpy as np

collected = []


def record(value):
    collected.append(np.asarray(value))


@jax.jit
def step(x):
    y = x * 2.0
    jax.debug.callback(record, y)
    return y


step(jnp.arange(3.0))
step(jnp.arange(3.0))
print("collected", len(collected), "values")
