# oracle: runs
import jax.numpy as jnp

maps = {"xmap": lambda f: f}
square = maps["xmap"](jnp.square)
print(square(jnp.arange(3.0)))
