# oracle: runs
import jax
import jax.numpy as jnp

DOC = "jax.xla_computation was replaced by jax.jit(f).lower(x)"
lowered = jax.jit(jnp.tanh).lower(jnp.ones(2))
print(DOC.split()[0], lowered.as_text()[:10])
