# oracle: stdout gradient has NaN: True
import jax
import jax.numpy as jnp


def angle(cosines):
    return jnp.where(jnp.abs(cosines) <= 1.0, jnp.arccos(cosines), 0.0)  # error: JX801


cosines = jnp.array([0.5, 1.0, 1.5])
print("angles:", angle(cosines))
jacobian = jax.jacrev(angle)(cosines)
print("gradient has NaN:", bool(jnp.isnan(jacobian).any()))
