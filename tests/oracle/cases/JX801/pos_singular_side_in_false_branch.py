# oracle: stdout gradient has NaN: True
import jax
import jax.numpy as jnp


def inverse_scale(scale):
    return jnp.where(scale == 0, 0.0, 1.0 / scale)  # error: JX801


def objective(scale):
    return jnp.sum(inverse_scale(scale) ** 2)


grads = jax.jit(jax.grad(objective))(jnp.array([2.0, 0.0]))
print("gradient has NaN:", bool(jnp.isnan(grads).any()))
