# oracle: stdout hidden layers equal: True
import equinox as eqx
import jax
import jax.numpy as jnp


def make_hidden_layers(width, key):
    first = eqx.nn.Linear(width, width, key=key)
    second = eqx.nn.Linear(width, width, key=key)  # error: JX602
    return [first, second]


class MLP(eqx.Module):
    layers: list

    def __init__(self, width, key):
        self.layers = make_hidden_layers(width, key)

    def __call__(self, x):
        for layer in self.layers:
            x = jax.nn.relu(layer(x))
        return x


model = MLP(16, jax.random.key(0))
print("hidden layers equal:", bool(jnp.all(model.layers[0].weight == model.layers[1].weight)))
