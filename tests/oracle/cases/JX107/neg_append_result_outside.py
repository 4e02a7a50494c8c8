# oracle: runs
import jax
import jax.numpy as jnp

history = []


@jax.jit
def step(x):
    return x * 2.0


x = jnp.arange(3.0)
for _ in range(2):
    x = step(x)
    history.append(x)
total = history[0] + 1.0
