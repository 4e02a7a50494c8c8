# oracle: stdout tokens
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax

MAX_LEN = 5


class DecodeState(NamedTuple):
    step: jax.Array
    tokens: jax.Array
    scores: jax.Array


def next_token_scores(tokens, step, transition):
    last = lax.dynamic_index_in_dim(tokens, step, axis=1, keepdims=False)
    return transition[last]


def extend(state: DecodeState, transition):
    scores = next_token_scores(state.tokens, state.step, transition)
    best = jnp.argmax(scores, axis=-1).astype(state.tokens.dtype)
    tokens = lax.dynamic_update_index_in_dim(state.tokens, best, state.step + 1, axis=1)
    return DecodeState(state.step + 1, tokens, state.scores + scores.max(axis=-1))


@jax.jit
def greedy_decode(transition, prompt):
    tokens = jnp.zeros((prompt.shape[0], MAX_LEN), prompt.dtype).at[:, :1].set(prompt)
    init = DecodeState(jnp.int32(0), tokens, jnp.zeros(prompt.shape[0]))
    cond = lambda s: s.step < MAX_LEN - 1
    return lax.while_loop(cond, lambda s: extend(s, transition), init)


transition = jnp.arange(16.0).reshape(4, 4) % 3
print("tokens", greedy_decode(transition, jnp.array([[1], [3]])).tokens)
