# oracle: raises IndexError: Slice entries must be static integers
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Batch(NamedTuple):
    tokens: jax.Array
    context_len: jax.Array


def truncate_context(tokens, context_len):
    return tokens[:, -context_len:]  # error: JX104


def lm_loss(embed, batch: Batch):
    ctx = truncate_context(batch.tokens, batch.context_len)
    h = embed[ctx[:, :-1]]
    logits = h @ embed.T
    targets = ctx[:, 1:]
    logp = jax.nn.log_softmax(logits)
    return -jnp.take_along_axis(logp, targets[..., None], axis=-1).mean()


@jax.jit
def train_step(embed, batch):
    loss, g = jax.value_and_grad(lm_loss)(embed, batch)
    return embed - 0.1 * g, loss


batch = Batch(jnp.array([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]]), jnp.array(3))
embed, loss = train_step(jnp.ones((8, 4)) * 0.1, batch)
print(loss)
