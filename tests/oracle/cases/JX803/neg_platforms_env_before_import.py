# oracle: stdout platform: cpu
import os

os.environ["JAX_PLATFORMS"] = "cpu"

import jax

print("platform:", jax.default_backend())
