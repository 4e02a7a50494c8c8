# oracle: runs
import jax
import jax.numpy as jnp


def normalize(x, *, eps=1e-6, axis=-1):
    return x / (jnp.linalg.norm(x, axis=axis, keepdims=True) + eps)


normalize_jit = jax.jit(normalize, static_argnames=("eps", "axis"))
print(normalize_jit(jnp.ones((2, 3)), axis=0))
