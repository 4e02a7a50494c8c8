# oracle: raises UnexpectedTracerError: Encountered an unexpected tracer
import jax.numpy as jnp
from jax import jit

LAST_LOSS = None


@jit
def loss(w):
    global LAST_LOSS
    value = jnp.sum(w**2)
    LAST_LOSS = value  # error: JX107
    return value


loss(jnp.arange(3.0))
print(LAST_LOSS * 2)
