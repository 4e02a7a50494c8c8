# oracle: runs
import jax
import jax.numpy as jnp

x = jnp.array([-1.5, 0.5, 2.5])
print(jnp.trunc(x), jnp.round(x), jnp.prod(x), jnp.all(x > -2), -jnp.inf)
print(jnp.vstack([x, x]).shape, jnp.isin(x, x).ravel(), jax.scipy.integrate.trapezoid(x))
