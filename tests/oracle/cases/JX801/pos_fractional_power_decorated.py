# oracle: stdout gradient has NaN: True
import jax
import jax.numpy as jnp


@jax.grad
def smooth_l_half(residuals):
    return jnp.sum(jnp.where(residuals > 0, residuals**0.5, 0.0))  # error: JX801


residuals = jnp.array([4.0, 0.0, -1.0])
grads = smooth_l_half(residuals)
print("gradient has NaN:", bool(jnp.isnan(grads).any()))
