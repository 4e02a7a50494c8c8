# oracle: stdout identical: True
import jax
import jax.numpy as jnp


@jax.jit
def two_draws(x, key):
    first = jax.random.normal(key, x.shape)
    second = jax.random.normal(key, x.shape)  # error: JX602
    return first, second


a, b = two_draws(jnp.zeros(4), jax.random.key(3))
print("identical:", bool((a == b).all()))
