# oracle: raises AttributeError: jax.lax.pvary was deprecated in JAX v0.8.2 and removed in JAX v0.10.0
import jax

MARKERS = {"varying": jax.lax.pvary}  # error: JX713
