# oracle: stdout float32
import equinox as eqx
import jax
import jax.numpy as jnp
from jax import lax


def gru_step(cell, h, x):
    h = cell(x.astype(jnp.bfloat16), h)
    return h, h


class SequenceEncoder(eqx.Module):
    cell: eqx.nn.GRUCell
    hidden_size: int = eqx.field(static=True)

    def __init__(self, in_size, hidden_size, key):
        self.hidden_size = hidden_size
        self.cell = eqx.nn.GRUCell(in_size, hidden_size, key=key)

    def initial_state(self):
        return jnp.zeros(self.hidden_size, dtype=self.cell.weight_hh.dtype)

    def __call__(self, xs):
        h, hs = lax.scan(lambda h, x: gru_step(self.cell, h, x), self.initial_state(), xs)
        return h


@eqx.filter_jit
def encode(model, xs):
    return model(xs)


model = SequenceEncoder(2, 4, jax.random.PRNGKey(0))
print(encode(model, jnp.ones((3, 2))).dtype)
