# oracle: raises AttributeError: module 'jax' has no attribute 'xla_computation'
import jax
import jax.numpy as jnp

TO_HLO = jax.xla_computation  # error: JX703
print(TO_HLO(jnp.exp)(2.0).as_hlo_text())
