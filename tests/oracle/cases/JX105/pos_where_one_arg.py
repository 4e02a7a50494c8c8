# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


@jax.jit
def first_negative(x):
    rows = jnp.where(x < 0)[0]  # error: JX105
    return rows[0]


first_negative(jnp.array([1.0, -2.0, 3.0]))
