# oracle: runs
import jax
import jax.numpy as jnp

try:
    from jax.experimental import host_callback as hcb
except ImportError:
    hcb = None

SEEN = []


@jax.jit
def step(x):
    if hcb is None:
        jax.experimental.io_callback(lambda v: SEEN.append(v), None, x)
    return x + 1


step(jnp.ones(2)).block_until_ready()
print(len(SEEN))
