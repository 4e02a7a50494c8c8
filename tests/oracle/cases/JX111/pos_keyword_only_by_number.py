# oracle: raises ValueError: Jitted function has static_argnums=(1, 2), but only accepts 1 positional arguments.
import jax
import jax.numpy as jnp


def normalize(x, *, eps=1e-6, axis=-1):
    return x / (jnp.linalg.norm(x, axis=axis, keepdims=True) + eps)


# `eps` and `axis` are keyword-only: they have no position at all.
normalize_jit = jax.jit(normalize, static_argnums=(1, 2))  # error: JX111
print(normalize_jit(jnp.ones((2, 3)), axis=0))
