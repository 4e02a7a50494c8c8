# oracle: raises AttributeError: jax.ad_checkpoint.checkpoint was deprecated in JAX v0.8.2 and removed in JAX v0.10.0
import jax
import jax.ad_checkpoint as adc
import jax.numpy as jnp

POLICY = jax.checkpoint_policies.nothing_saveable
scan_body = adc.checkpoint(lambda c, x: (c + x, c), policy=POLICY)  # error: JX711
