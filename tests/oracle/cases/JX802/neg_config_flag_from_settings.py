# oracle: stdout computed in: float64
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass
class RunConfig:
    double_precision: bool = True


def setup(cfg):
    jax.config.update("jax_enable_x64", cfg.double_precision)


setup(RunConfig())
state = jnp.zeros(3, dtype=jnp.float64)
print("computed in:", state.dtype)
