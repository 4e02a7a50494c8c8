# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import jax.numpy as jnp

counts = jnp.arange(3.0)
counts[1] += 2.0  # error: JX601
