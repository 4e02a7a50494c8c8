# oracle: runs
import jax
import jax.numpy as jnp

if jax.__version_info__ < (0, 4, 30):
    hlo = jax.xla_computation(jnp.sin)(1.0).as_hlo_text()
else:
    hlo = jax.jit(jnp.sin).lower(1.0).as_text()
print(len(hlo) > 0)
