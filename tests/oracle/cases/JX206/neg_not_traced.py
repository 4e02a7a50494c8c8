# oracle: stdout total: 3003.0
import jax.numpy as jnp


def eager(x):
    for _ in range(1000):
        x = x + 1.0
    return x


print("total:", float(eager(jnp.ones(3)).sum()))
