# oracle: stdout first row kept True
import equinox as eqx
import jax
import jax.numpy as jnp


def decay_all_but_first_row(weight, rate):
    return weight.at[1:].multiply(1.0 - rate)


class Layer(eqx.Module):
    weight: jax.Array
    bias: jax.Array

    def __init__(self, key):
        self.weight = jax.random.normal(key, (3, 2))
        self.bias = jnp.zeros(2)

    def decayed(self, rate):
        return eqx.tree_at(lambda m: m.weight, self, decay_all_but_first_row(self.weight, rate))


@eqx.filter_jit
def regularize(layer, rate):
    return layer.decayed(rate)


original = Layer(jax.random.PRNGKey(0))
layer = regularize(original, 0.1)
print("first row kept", bool(jnp.all(layer.weight[0] == original.weight[0])))
