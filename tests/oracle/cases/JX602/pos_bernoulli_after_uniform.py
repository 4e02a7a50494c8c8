# oracle: stdout dependent: True
import jax
from jax import random

key = random.key(42)
noise = random.uniform(key, (1000,))
mask = random.bernoulli(key, 0.5, (1000,))  # error: JX602
print("dependent:", bool((mask == (noise < 0.5)).all()))
