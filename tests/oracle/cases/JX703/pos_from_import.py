# oracle: raises ImportError: cannot import name 'xla_computation' from 'jax'
import jax.numpy as jnp
from jax import xla_computation  # error: JX703

computation = xla_computation(jnp.sin)(1.0)
