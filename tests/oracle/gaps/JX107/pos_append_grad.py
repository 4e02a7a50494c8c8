# oracle: raises UnexpectedTracerError: Encountered an unexpected tracer
import jax
import jax.numpy as jnp

activations = []


def loss(w):
    hidden = jnp.tanh(w)
    activations.append(hidden)  # error: JX107
    return jnp.sum(hidden**2)


jax.grad(loss)(jnp.arange(3.0))
activations[0].sum()
