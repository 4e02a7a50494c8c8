# oracle: runs
import jax.numpy as jnp

try:
    from jax import checkpoint
except ImportError:
    from jax.ad_checkpoint import checkpoint

print(checkpoint(jnp.sin)(1.0))
