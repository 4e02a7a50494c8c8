# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def _forward(w, x):
    return x * w


class Model:
    def __init__(self):
        self.w = jnp.float32(2.0)
        self.last_output = None

    def __call__(self, x):
        out = _forward(self.w, x)
        self.last_output = out
        return out


model = Model()
model(jnp.arange(3.0))
model.last_output + 1.0
