# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax.numpy as jnp
from jax import lax


def body(carry, v):
    step = int(v)  # error: JX102
    return carry + step, carry


lax.scan(body, 0, jnp.arange(3))
