# oracle: runs
import jax
import jax.numpy as jnp

try:
    from jax.experimental.pjit import with_sharding_constraint
except ImportError:
    from jax.lax import with_sharding_constraint


@jax.jit
def f(x):
    return x * 2


print(f(jnp.ones(2)), with_sharding_constraint.__name__)
