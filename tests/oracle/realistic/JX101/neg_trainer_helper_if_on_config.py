# oracle: stdout loss
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import optax


@dataclass(frozen=True)
class TrainConfig:
    learning_rate: float = 1e-2
    max_grad_norm: float | None = 1.0


def mse_loss(params, batch):
    preds = batch["x"] @ params["w"] + params["b"]
    return jnp.mean((preds - batch["y"]) ** 2)


def maybe_clip(grads, max_grad_norm):
    if max_grad_norm is None:
        return grads
    norm = optax.global_norm(grads)
    scale = jnp.minimum(1.0, max_grad_norm / (norm + 1e-6))
    return jax.tree.map(lambda g: g * scale, grads)


class Trainer:
    def __init__(self, cfg: TrainConfig):
        self.cfg = cfg
        self.tx = optax.sgd(cfg.learning_rate)
        self.step = jax.jit(self._step)

    def init(self, key):
        params = {"w": jax.random.normal(key, (4, 1)), "b": jnp.zeros((1,))}
        return params, self.tx.init(params)

    def _step(self, params, opt_state, batch):
        loss, grads = jax.value_and_grad(mse_loss)(params, batch)
        grads = maybe_clip(grads, self.cfg.max_grad_norm)
        if self.cfg.learning_rate > 0:
            updates, opt_state = self.tx.update(grads, opt_state, params)
            params = optax.apply_updates(params, updates)
        return params, opt_state, loss


trainer = Trainer(TrainConfig())
params, opt_state = trainer.init(jax.random.PRNGKey(0))
batch = {"x": jnp.ones((8, 4)), "y": jnp.zeros((8, 1))}
params, opt_state, loss = trainer.step(params, opt_state, batch)
print("loss", float(loss))
