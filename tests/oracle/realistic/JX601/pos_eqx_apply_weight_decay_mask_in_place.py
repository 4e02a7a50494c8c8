# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import equinox as eqx
import jax
import jax.numpy as jnp


def decay_all_but_first_row(weight, rate):
    weight[1:] *= 1.0 - rate  # error: JX601
    return weight


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


layer = regularize(Layer(jax.random.PRNGKey(0)), 0.1)
print(layer.weight)
