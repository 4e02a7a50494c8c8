# oracle: raises UnexpectedTracerError: Encountered an unexpected tracer
import jax
import jax.numpy as jnp

history = []


@jax.jit
def step(x):
    y = x * 2.0
    history.append(y)  # error: JX107
    return y


step(jnp.arange(3.0))
total = history[0] + 1.0
