# oracle: raises AttributeError: jax.ad_checkpoint.checkpoint was deprecated in JAX v0.8.2 and removed in JAX v0.10.0
import jax
import jax.numpy as jnp
from jax import ad_checkpoint


@ad_checkpoint.checkpoint  # error: JX711
def block(x):
    return jnp.exp(jnp.sin(x))


print(jax.grad(lambda x: block(x).sum())(jnp.ones(2)))
