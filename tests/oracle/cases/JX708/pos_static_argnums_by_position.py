# oracle: raises TypeError: jit() takes from 0 to 1 positional arguments but 2 were given
import jax
import jax.numpy as jnp


def scaled_mean(x, scale):
    return x.mean() * scale


fast = jax.jit(scaled_mean, (1,))  # error: JX708
print(fast(jnp.arange(8.0), 2))
