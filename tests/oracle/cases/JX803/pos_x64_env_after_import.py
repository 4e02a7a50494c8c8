# oracle: stdout computed in: float32
import os

import jax.numpy as jnp


class Precision:
    def __init__(self, double):
        self.double = double

    def install(self):
        if self.double:
            os.environ.update({"JAX_ENABLE_X64": "1"})  # error: JX803


Precision(double=True).install()
state = jnp.zeros(3, dtype=jnp.float64)
print("computed in:", state.dtype)
