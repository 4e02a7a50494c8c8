# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


def widen(x, copies=2.0):
    return jnp.tile(x, int(copies))  # error: JX102


print(jax.vmap(widen)(jnp.ones((3, 2)), jnp.full(3, 2.0)))
