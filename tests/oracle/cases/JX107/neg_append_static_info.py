# oracle: stdout traced shapes: [(3,)]
import jax
import jax.numpy as jnp

trace_log = []


@jax.jit
def step(x):
    trace_log.append(x.shape)
    return x * 2.0


step(jnp.arange(3.0))
step(jnp.arange(3.0))
print("traced shapes:", trace_log)
