# oracle: raises UnexpectedTracerError: Encountered an unexpected tracer
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
        self.hidden_states.append(h)  # error: JX107
        return h, h.sum()

    def __call__(self, xs):
        h0 = jnp.zeros(self.w_h.shape[0])
        h, outs = lax.scan(self.cell, h0, xs)
        return h, outs


rnn = RNN()
h, outs = jax.jit(rnn.__call__)(jnp.ones((3, 4)))
states = jnp.stack(rnn.hidden_states)
print(states.shape)
