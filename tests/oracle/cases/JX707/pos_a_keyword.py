# oracle: raises TypeError: clip() got an unexpected keyword argument 'a'
import jax.numpy as jnp

probs = jnp.array([0.0, 0.3, 1.0])
safe = jnp.clip(a=probs, a_min=1e-6, a_max=1 - 1e-6)  # error: JX707
