# oracle: runs
import jax
import jax.numpy as jnp

block = jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)), policy=jax.checkpoint_policies.nothing_saveable)
print(jax.grad(lambda x: block(x).sum())(jnp.ones(3)))
