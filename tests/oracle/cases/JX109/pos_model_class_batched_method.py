# oracle: raises ValueError: vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional
import jax
import jax.numpy as jnp


def dense(params, x, dropout_key):
    keep = jax.random.bernoulli(dropout_key, 0.9, x.shape)
    return jnp.tanh(jnp.where(keep, x, 0.0) @ params)


class Model:
    def __init__(self, params):
        self.params = params
        self.batched = jax.vmap(dense, in_axes=(None, 0, None, 0))

    def __call__(self, xs, key):
        return self.batched(self.params, xs, key)  # error: JX109


model = Model(jnp.ones((3, 2)))
print(model(jnp.ones((8, 3)), jax.random.key(0)))
