# oracle: runs
import jax
import jax.numpy as jnp


def to_text(fn, x):
    if hasattr(jax, "xla_computation"):
        return jax.xla_computation(fn)(x).as_hlo_text()
    return jax.jit(fn).lower(x).as_text()


print(len(to_text(jnp.cos, 2.0)) > 0)
