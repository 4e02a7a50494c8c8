# oracle: stdout graph overhead per step measured
"""A benchmark of graph-handling overhead: the jitted step hands its inputs back unchanged (as a
split/merge round trip is timed), so there is no computation the clock could miss."""

from time import perf_counter

import jax
import jax.numpy as jnp


def split(model):
    return model["graph"], model["state"]


def time_jax_step(model, steps=100):
    @jax.jit
    def step_jax(graphdef, state):
        return graphdef, state

    graphdef, state = split(model)
    t0 = perf_counter()
    for _ in range(steps):
        graphdef, state = step_jax(graphdef, state)
    return (perf_counter() - t0) / steps


model = {"graph": jnp.zeros(3), "state": {"w": jnp.ones((8, 8))}}
print("graph overhead per step measured", time_jax_step(model) > 0)
