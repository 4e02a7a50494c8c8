# oracle: stdout same masks: True
import jax
import jax.numpy as jnp


def dropout(x, rate, key):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def mlp(params, x, key):
    h = jnp.tanh(x @ params["w1"])
    h = dropout(h, 0.5, key)
    out = h @ params["w2"]
    return dropout(out, 0.5, key)  # error: JX602


params = {"w1": jnp.ones((4, 4)), "w2": jnp.eye(4)}
key = jax.random.PRNGKey(0)
h_mask = jax.random.bernoulli(key, 0.5, (1, 4))
out = mlp(params, jnp.ones((1, 4)), key)  # error: JX602
print("same masks:", bool(jnp.all((out != 0) == h_mask)))
