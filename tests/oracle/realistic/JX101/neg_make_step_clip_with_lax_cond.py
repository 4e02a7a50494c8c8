# oracle: stdout loss
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import optax
from jax import lax


@dataclass
class OptimConfig:
    lr: float = 0.05
    clip: bool = True
    clip_value: float = 1.0


def loss_fn(params, x, y):
    logits = x @ params["w"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


def clip_grads(grads, cfg):
    if not cfg.clip:
        return grads
    gnorm = optax.global_norm(grads)
    return lax.cond(
        gnorm > cfg.clip_value,
        lambda g: jax.tree.map(lambda t: t * cfg.clip_value / gnorm, g),
        lambda g: g,
        grads,
    )


def make_step(cfg: OptimConfig):
    tx = optax.sgd(cfg.lr)

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        grads = clip_grads(grads, cfg)
        updates, opt_state = tx.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, loss

    return tx, jax.jit(step)


cfg = OptimConfig()
tx, step = make_step(cfg)
params = {"w": jnp.zeros((4, 3))}
opt_state = tx.init(params)
x = jnp.arange(8.0).reshape(2, 4)
params, opt_state, loss = step(params, opt_state, x, jnp.array([0, 2]))
print("loss", loss)
