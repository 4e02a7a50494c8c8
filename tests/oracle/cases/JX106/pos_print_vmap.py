# oracle: stdout VmapTracer(
import jax
import jax.numpy as jnp


def scale(v):
    print("element:", v)  # error: JX106
    return v * 2.0


jax.vmap(scale)(jnp.arange(3.0))
