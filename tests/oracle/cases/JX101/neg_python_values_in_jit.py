# oracle: runs
import jax
import jax.numpy as jnp

LAYERS = 3
USE_BIAS = True


@jax.jit
def mlp(x):
    for i in range(LAYERS):
        if i % 2 == 0:
            x = jnp.tanh(x)
        else:
            x = x * 0.5
    if USE_BIAS and LAYERS > 1:
        x = x + 1.0
    assert LAYERS > 0
    return x


mlp(jnp.arange(3.0))
