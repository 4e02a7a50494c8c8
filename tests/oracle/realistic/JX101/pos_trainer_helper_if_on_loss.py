# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import optax


@dataclass(frozen=True)
class TrainConfig:
    learning_rate: float = 1e-2
    max_loss: float = 10.0


def mse_loss(params, batch):
    preds = batch["x"] @ params["w"] + params["b"]
    return jnp.mean((preds - batch["y"]) ** 2)


def skip_if_diverged(loss, grads, max_loss):
    if loss > max_loss:  # error: JX101
        return jax.tree.map(jnp.zeros_like, grads)
    return grads


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
        grads = skip_if_diverged(loss, grads, self.cfg.max_loss)
        updates, opt_state = self.tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss


trainer = Trainer(TrainConfig())
params, opt_state = trainer.init(jax.random.PRNGKey(0))
batch = {"x": jnp.ones((8, 4)), "y": jnp.zeros((8, 1))}
params, opt_state, loss = trainer.step(params, opt_state, batch)
print("loss", float(loss))
