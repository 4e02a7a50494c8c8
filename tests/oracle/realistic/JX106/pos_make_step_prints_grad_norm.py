# oracle: stdout grad_norm=JitTracer(
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import optax


@dataclass(frozen=True)
class Config:
    lr: float = 0.1
    verbose: bool = True


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    return optax.sigmoid_binary_cross_entropy(logits, y).mean()


def make_step(cfg: Config):
    tx = optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(cfg.lr))

    def step(params, opt_state, x, y):
        grads = jax.grad(loss_fn)(params, x, y)
        if cfg.verbose:
            print(f"grad_norm={optax.global_norm(grads)}")  # error: JX106
        updates, opt_state = tx.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state

    return tx, jax.jit(step)


tx, step = make_step(Config())
params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
opt_state = tx.init(params)
params, opt_state = step(params, opt_state, jnp.ones((4, 3)), jnp.ones(4))
