# oracle: raises ImportError: cannot import name 'device_put_replicated' from 'jax'
import jax.numpy as jnp
from jax import device_put_replicated, devices  # error: JX710

x = device_put_replicated(jnp.zeros(2), devices())
