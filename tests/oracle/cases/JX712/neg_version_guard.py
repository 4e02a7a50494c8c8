# oracle: runs
import jax
import jax.numpy as jnp

if jax.__version_info__ >= (0, 4, 36):
    aval = jax.typeof(jnp.ones(3))
else:
    aval = jax.core.get_aval(jnp.ones(3))
print(aval)
