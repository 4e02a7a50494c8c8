# oracle: raises ValueError: output array is read-only
import jax.numpy as jnp
import numpy as np

probs = np.asarray(jnp.array([0.2, -0.1, 0.9]))
np.clip(probs, 0.0, 1.0, out=probs)  # error: JX607
