# oracle: stdout draws differ: True
import jax
import jax.numpy as jnp


def describe(key):
    return f"key of shape {jnp.shape(key)}"


def sample_pair(key):
    print(describe(key))
    print(describe(key))
    a_key, b_key = jax.random.split(key)
    return jax.random.normal(a_key, (3,)), jax.random.normal(b_key, (3,))


a, b = sample_pair(jax.random.PRNGKey(1))
print("draws differ:", bool(jnp.any(a != b)))
