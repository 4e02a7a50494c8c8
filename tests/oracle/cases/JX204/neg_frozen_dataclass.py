# oracle: stdout result: 8.0
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Config:
    scale: float


@functools.partial(jax.jit, static_argnames="config")
def apply(x, config):
    return (x * config.scale).sum()


print("result:", float(apply(jnp.ones(4), config=Config(2.0))))
