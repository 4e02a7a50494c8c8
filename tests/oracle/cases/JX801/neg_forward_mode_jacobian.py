# oracle: stdout jacobian has NaN: False
import jax
import jax.numpy as jnp


def safe_sqrt(x):
    return jnp.where(x > 0, jnp.sqrt(x), 0.0)


def features(x):
    return jnp.stack([safe_sqrt(x), x**2])


jacobian = jax.jacfwd(features)(jnp.array([0.0, 4.0, -1.0]))
print("jacobian has NaN:", bool(jnp.isnan(jacobian).any()))
