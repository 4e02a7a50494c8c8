# oracle: raises ValueError: Non-hashable static arguments are not supported
import jax
import jax.numpy as jnp

pick = jax.jit(lambda x, columns: x[:, columns[0]], static_argnums=1)

columns = [0, 2]
pick(jnp.ones((3, 4)), columns)  # error: JX204
