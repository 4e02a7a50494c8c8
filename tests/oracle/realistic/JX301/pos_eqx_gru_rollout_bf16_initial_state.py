# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import equinox as eqx
import jax
import jax.numpy as jnp
from jax import lax


def gru_step(cell, h, x):
    h = cell(x, h)
    return h, h


class SequenceEncoder(eqx.Module):
    cell: eqx.nn.GRUCell
    hidden_size: int = eqx.field(static=True)

    def __init__(self, in_size, hidden_size, key):
        self.hidden_size = hidden_size
        self.cell = eqx.nn.GRUCell(in_size, hidden_size, key=key)

    def initial_state(self):
        return jnp.zeros(self.hidden_size, dtype=jnp.bfloat16)

    def __call__(self, xs):
        h, hs = lax.scan(lambda h, x: gru_step(self.cell, h, x), self.initial_state(), xs)  # error: JX301
        return h


@eqx.filter_jit
def encode(model, xs):
    return model(xs)


model = SequenceEncoder(2, 4, jax.random.PRNGKey(0))
print(encode(model, jnp.ones((3, 2))))
