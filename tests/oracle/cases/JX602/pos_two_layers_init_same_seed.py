# oracle: stdout layers start equal: True
import jax
import jax.numpy as jnp

HIDDEN = 8


class Dense:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        return jnp.tanh(x @ self.w)


def first_layer_weights():
    key = jax.random.PRNGKey(7)
    return jax.random.uniform(key, (HIDDEN, HIDDEN), minval=-0.5, maxval=0.5)


def second_layer_weights():
    key = jax.random.PRNGKey(7)
    return jax.random.uniform(key, (HIDDEN, HIDDEN), minval=-0.5, maxval=0.5)  # error: JX602


def build_model():
    return [Dense(first_layer_weights()), Dense(second_layer_weights())]


layers = build_model()
print("layers start equal:", bool(jnp.all(layers[0].w == layers[1].w)))
