# oracle: stdout draws (3,)
import jax
from jax import random

draw = lambda key, shape=(): random.randint(key, shape, 0, 100)  # noqa: E731
keys = random.split(random.key(73), num=3)
print("draws", jax.vmap(draw)(keys).shape)
