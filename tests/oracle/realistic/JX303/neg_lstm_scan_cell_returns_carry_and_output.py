# oracle: stdout (2, 1)
import jax
import jax.numpy as jnp
from jax import lax
from flax import nnx


class LSTM(nnx.Module):
    def __init__(self, din, hidden, rngs):
        self.hidden = hidden
        self.gates = nnx.Linear(din + hidden, 4 * hidden, rngs=rngs)
        self.head = nnx.Linear(hidden, 1, rngs=rngs)

    def cell(self, carry, x):
        h, c = carry
        i, f, g, o = jnp.split(self.gates(jnp.concatenate([x, h], -1)), 4, axis=-1)
        c = nnx.sigmoid(f) * c + nnx.sigmoid(i) * jnp.tanh(g)
        h = nnx.sigmoid(o) * jnp.tanh(c)
        return (h, c), h

    def __call__(self, xs):
        carry = (jnp.zeros((xs.shape[1], self.hidden)), jnp.zeros((xs.shape[1], self.hidden)))
        (h, c), _ = lax.scan(self.cell, carry, xs)
        return self.head(h)


model = LSTM(3, 4, nnx.Rngs(0))
forward = nnx.jit(lambda m, xs: m(xs))
print(forward(model, jnp.ones((5, 2, 3))).shape)
