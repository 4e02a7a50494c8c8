# oracle: stdout same mask in both blocks: False
import equinox as eqx
import jax
import jax.numpy as jnp


class Block(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, width, key):
        self.linear = eqx.nn.Linear(width, width, key=key)
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x, key):
        return self.dropout(jax.nn.sigmoid(self.linear(x)), key=key)


class Network(eqx.Module):
    blocks: list

    def __init__(self, width, key):
        self.blocks = [Block(width, k) for k in jax.random.split(key, 2)]

    def __call__(self, x, key):
        k1, k2 = jax.random.split(key)
        first = self.blocks[0](x, k1)
        second = self.blocks[1](x, k2)
        return first, second


net = Network(16, jax.random.key(0))
first, second = net(jnp.ones(16), jax.random.key(1))
print("same mask in both blocks:", bool(jnp.all((first == 0) == (second == 0))))
