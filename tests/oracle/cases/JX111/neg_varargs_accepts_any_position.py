# oracle: runs
import jax
import jax.numpy as jnp


def concat(*parts):
    return jnp.concatenate([p for p in parts if not isinstance(p, str)])


concat_jit = jax.jit(concat, static_argnums=(2,))
print(concat_jit(jnp.ones(2), jnp.ones(3), "tag"))
