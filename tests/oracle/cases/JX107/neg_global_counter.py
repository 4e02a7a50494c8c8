# oracle: stdout traces=1
import jax
import jax.numpy as jnp

TRACE_COUNT = 0


@jax.jit
def step(x):
    global TRACE_COUNT
    TRACE_COUNT += 1
    return x * 2.0


step(jnp.arange(3.0))
step(jnp.arange(3.0))
print(f"traces={TRACE_COUNT}")
