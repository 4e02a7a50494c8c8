# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp


def loss(w):
    value = jnp.sum(w**2)
    print_value = float(value)  # error: JX102
    return value * print_value


jax.grad(loss)(jnp.arange(3.0))
