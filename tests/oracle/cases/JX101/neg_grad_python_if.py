# oracle: runs
# jax.grad alone evaluates the function on concrete primal values, so Python
# control flow on the input is allowed (docs: "Python control flow + autodiff").
import jax
import jax.numpy as jnp


def piecewise(x):
    if x > 1.0:
        return x**2
    return 2.0 * x


jax.grad(piecewise)(jnp.float32(3.0))
jax.grad(piecewise)(jnp.float32(0.5))
