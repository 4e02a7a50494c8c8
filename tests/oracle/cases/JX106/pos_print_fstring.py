# oracle: stdout loss=JitTracer(float32[])
import jax.numpy as jnp
from jax import jit


@jit
def loss(w):
    value = jnp.sum(w**2)
    print(f"loss={value}")  # error: JX106
    return value


loss(jnp.arange(3.0))
