# oracle: stdout loss
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax

WINDOW = 3


class Batch(NamedTuple):
    tokens: jax.Array
    start: jax.Array


def truncate_context(tokens, start):
    return lax.dynamic_slice_in_dim(tokens, start, WINDOW, axis=1)


def lm_loss(embed, batch: Batch):
    ctx = truncate_context(batch.tokens, batch.start)
    h = embed[ctx[:, :-1]]
    logits = h @ embed.T
    targets = ctx[:, 1:]
    logp = jax.nn.log_softmax(logits)
    return -jnp.take_along_axis(logp, targets[..., None], axis=-1).mean()


@jax.jit
def train_step(embed, batch):
    loss, g = jax.value_and_grad(lm_loss)(embed, batch)
    return embed - 0.1 * g, loss


batch = Batch(jnp.array([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]]), jnp.array(2))
embed, loss = train_step(jnp.ones((8, 4)) * 0.1, batch)
print("loss", loss)
