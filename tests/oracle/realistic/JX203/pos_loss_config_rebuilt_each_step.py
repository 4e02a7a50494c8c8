# oracle: stdout compiles after 3 and 6 steps: 3 6
import functools

import jax
import jax.numpy as jnp


class LossConfig:
    def __init__(self, label_smoothing, num_classes):
        self.label_smoothing = label_smoothing
        self.num_classes = num_classes


def smoothed_cross_entropy(logits, labels, cfg):
    onehot = jax.nn.one_hot(labels, cfg.num_classes)
    target = onehot * (1.0 - cfg.label_smoothing) + cfg.label_smoothing / cfg.num_classes
    return -jnp.mean(jnp.sum(target * jax.nn.log_softmax(logits), axis=-1))


@functools.partial(jax.jit, static_argnames="cfg")
def train_step(w, x, labels, cfg):
    loss, grads = jax.value_and_grad(lambda w: smoothed_cross_entropy(x @ w, labels, cfg))(w)
    return w - 0.1 * grads, loss


w = jnp.zeros((8, 10))
x, labels = jnp.ones((16, 8)), jnp.arange(16) % 10
compiles = []
for step in range(6):
    cfg = LossConfig(label_smoothing=0.1, num_classes=10)
    w, loss = train_step(w, x, labels, cfg=cfg)  # error: JX203
    compiles.append(train_step._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
