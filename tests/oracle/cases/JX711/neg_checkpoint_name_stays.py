# oracle: runs
import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name


@jax.remat
def block(x):
    return jnp.tanh(checkpoint_name(x * 2, "scaled"))


print(jax.grad(lambda x: block(x).sum())(jnp.ones(2)))
