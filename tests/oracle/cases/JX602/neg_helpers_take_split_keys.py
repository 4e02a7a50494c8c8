# oracle: stdout layers start equal: False
import jax
import jax.numpy as jnp


def layer_weights(key, dim):
    return jax.random.normal(key, (dim, dim))


def init(dim=8):
    root = jax.random.PRNGKey(0)
    first_key, second_key = jax.random.split(root)
    return [layer_weights(first_key, dim), layer_weights(second_key, dim)]


first, second = init()
print("layers start equal:", bool(jnp.all(first == second)))
