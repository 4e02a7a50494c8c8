# oracle: raises UnexpectedTracerError: Encountered an unexpected tracer
import jax
import jax.numpy as jnp

seen = []


def scale(v):
    out = v * 2.0
    seen.append(out)  # error: JX107
    return out


jax.vmap(scale)(jnp.arange(3.0))
jnp.stack(seen)
