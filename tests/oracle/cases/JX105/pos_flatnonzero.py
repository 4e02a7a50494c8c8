# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


def hits(x):
    return jnp.flatnonzero(x)  # error: JX105


jax.jit(hits)(jnp.array([0.0, 1.0, 0.0, 2.0]))
