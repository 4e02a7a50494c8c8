# oracle: stdout gradient has NaN: False
import jax
import jax.numpy as jnp


def inverse_scale(scale):
    is_zero = scale == 0
    denominator = jnp.where(is_zero, 1.0, scale)
    return jnp.where(is_zero, 0.0, 1.0 / denominator)


def objective(scale):
    return jnp.sum(inverse_scale(scale) ** 2)


grads = jax.jit(jax.grad(objective))(jnp.array([2.0, 0.0]))
print("gradient has NaN:", bool(jnp.isnan(grads).any()))
