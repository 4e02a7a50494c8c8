# oracle: stdout same masks: False
import jax
import jax.numpy as jnp


def dropout(x, rate, key):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def mlp(params, x, key):
    k1, k2 = jax.random.split(key)
    h = dropout(jnp.tanh(x @ params["w1"]), 0.5, k1)
    return dropout(h @ params["w2"], 0.5, k2), k1


params = {"w1": jnp.ones((1, 64)), "w2": jnp.eye(64)}
out, k1 = mlp(params, jnp.ones((1, 1)), jax.random.PRNGKey(0))
h_mask = jax.random.bernoulli(k1, 0.5, (1, 64))
print("same masks:", bool(jnp.all((out != 0) == h_mask)))
