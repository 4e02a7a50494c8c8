# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


def positions(x):
    length = x.sum().astype(jnp.int32)
    return jnp.arange(length)  # error: JX104


jax.jit(positions)(jnp.arange(3.0))
