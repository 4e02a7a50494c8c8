# oracle: stdout (3, 4)
import jax
import jax.numpy as jnp
from jax import lax


class RNN:
    def __init__(self, hidden=4):
        key = jax.random.PRNGKey(0)
        self.w_h = jax.random.normal(key, (hidden, hidden)) * 0.1
        self.w_x = jnp.eye(hidden)
        self.hidden_states = []

    def cell(self, h, x):
        h = jnp.tanh(h @ self.w_h + x @ self.w_x)
        return h, h

    def __call__(self, xs):
        h0 = jnp.zeros(self.w_h.shape[0])
        h, hs = lax.scan(self.cell, h0, xs)
        return h, hs


rnn = RNN()
h, hs = jax.jit(rnn.__call__)(jnp.ones((3, 4)))
rnn.hidden_states.extend(list(hs))
states = jnp.stack(rnn.hidden_states)
print(states.shape)
