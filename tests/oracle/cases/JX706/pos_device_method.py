# oracle: raises TypeError: 'Device' object is not callable
import jax
import jax.numpy as jnp


def describe(batch):
    x = jnp.asarray(batch)
    return f"{x.shape} on {x.device()}"  # error: JX706


print(describe([1.0, 2.0]))
