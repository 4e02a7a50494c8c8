# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def update(state, x):
    new_state = dict(state)
    new_state["w"] = state["w"] + x.sum()
    parts = [x, x]
    parts[1] = x * 2.0
    new_state["parts"] = parts
    return new_state


update({"w": jnp.float32(0.0)}, jnp.arange(3.0))
