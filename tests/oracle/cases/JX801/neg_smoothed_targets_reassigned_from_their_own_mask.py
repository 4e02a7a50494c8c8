# oracle: stdout True
"""A trainer's loss smooths its one-hot targets in place: `targets = jnp.where(targets == 1.0, ...)`. The mask
compares the old targets; the division by the vocabulary size minus one is finite everywhere."""

import jax
import jax.numpy as jnp


def apply(params, tokens):
    return jax.nn.one_hot(tokens[:, :-1], params.shape[0]) @ params


def train_step(params, tokens, config):
    def loss_fn(params):
        text_logits = apply(params, tokens)
        logp = jax.nn.log_softmax(text_logits, axis=-1)
        targets = jax.nn.one_hot(tokens[:, 1:], text_logits.shape[-1])
        off_value = config.get("label_smoothing", 0.0)
        if off_value > 0:
            denom = text_logits.shape[-1] - 1
            targets = jnp.where(targets == 1.0, 1.0 - off_value, off_value / denom)
        return -jnp.sum(logp * targets)

    return jax.grad(loss_fn)(params)


grads = train_step(jnp.eye(6), jnp.array([[1, 2, 3, 4]]), {"label_smoothing": 0.1})
print(bool(jnp.isfinite(grads).all()))
