# oracle: raises TypeError: switch branches must have equal output types
import jax.numpy as jnp
from jax import lax

x = jnp.ones(4)
lax.switch(  # error: JX304
    0,
    [
        lambda v: v * 2,
        lambda v: v - 1,
        lambda v: v.astype(jnp.int32),
    ],
    x,
)
