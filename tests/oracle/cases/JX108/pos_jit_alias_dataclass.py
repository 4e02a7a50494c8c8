# oracle: raises TypeError: Error interpreting argument to
import dataclasses

import jax.numpy as jnp
from jax import jit as j


@dataclasses.dataclass(frozen=True)
class Config:
    scale: float = 2.0

    @j  # error: JX108
    def apply(self, x):
        return x * self.scale


Config().apply(jnp.arange(3.0))
