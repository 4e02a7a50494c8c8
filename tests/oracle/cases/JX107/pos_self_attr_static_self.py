# oracle: raises UnexpectedTracerError: Encountered an unexpected tracer
from functools import partial

import jax
import jax.numpy as jnp


class Model:
    def __init__(self):
        self.scale = 2.0
        self.last_output = None

    @partial(jax.jit, static_argnums=0)
    def forward(self, x):
        out = x * self.scale
        self.last_output = out  # error: JX107
        return out


model = Model()
model.forward(jnp.arange(3.0))
model.last_output + 1.0
