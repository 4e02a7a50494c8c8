# oracle: stdout computed in: float32
from dataclasses import dataclass

import jax.numpy as jnp


@dataclass(frozen=True)
class SolverConfig:
    size: int = 4
    dtype: object = jnp.float64


def initial_state(cfg):
    return jnp.zeros(cfg.size, dtype=cfg.dtype)  # error: JX802


state = initial_state(SolverConfig())
print("computed in:", state.dtype)
