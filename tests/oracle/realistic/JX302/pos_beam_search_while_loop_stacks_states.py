# oracle: raises TypeError: while_loop body function carry input and carry output must have equal types
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class DecodeState(NamedTuple):
    step: jax.Array
    tokens: jax.Array
    scores: jax.Array


def next_token_scores(tokens, transition):
    return transition[tokens[..., -1]]


def extend(state: DecodeState, transition):
    scores = next_token_scores(state.tokens, transition)
    best = jnp.argmax(scores, axis=-1)
    tokens = jnp.stack([state.tokens, jnp.broadcast_to(best[:, None], state.tokens.shape)])
    return DecodeState(state.step + 1, tokens, state.scores + scores.max(axis=-1))


@jax.jit
def greedy_decode(transition, prompt):
    init = DecodeState(jnp.int32(0), prompt, jnp.zeros(prompt.shape[0]))
    cond = lambda s: s.step < 3
    return lax.while_loop(cond, lambda s: extend(s, transition), init)  # error: JX302


transition = jnp.arange(16.0).reshape(4, 4) % 3
print(greedy_decode(transition, jnp.array([[1, 2], [3, 0]])).tokens)
