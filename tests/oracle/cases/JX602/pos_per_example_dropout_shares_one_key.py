# oracle: stdout every example got the same mask: True
import jax
import jax.numpy as jnp


def dropout(x, key, rate=0.5):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def mlp_example(params, x, key):
    h = jnp.tanh(x @ params["w1"])
    h = dropout(h, key)
    return h @ params["w2"]


class Model:
    def __init__(self, params):
        self.params = params

    def forward(self, batch, key):
        per_example = jax.vmap(mlp_example, in_axes=(None, 0, None))
        return per_example(self.params, batch, key)  # error: JX602


params = {"w1": jnp.ones((4, 64)), "w2": jnp.eye(64)}
out = Model(params).forward(jnp.ones((6, 4)), jax.random.key(3))
print("every example got the same mask:", bool(jnp.all((out == 0) == (out[0] == 0))))
