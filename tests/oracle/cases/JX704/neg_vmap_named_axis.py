# oracle: runs
import jax
import jax.numpy as jnp


def normalize(x):
    return x - jax.lax.pmean(x, axis_name="batch")


print(jax.vmap(normalize, axis_name="batch")(jnp.arange(4.0)))
