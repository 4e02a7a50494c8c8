# oracle: stdout gradient has NaN: True
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Config:
    learning_rate: float = 0.1


def masked_mean(values, mask):
    total = jnp.sum(values * mask)
    count = jnp.sum(mask)
    return jnp.where(count > 0, total / count, 0.0)  # error: JX801


def loss_fn(params, batch):
    errors = (batch["x"] * params["w"] - batch["y"]) ** 2
    return masked_mean(errors, batch["mask"])


@jax.jit
def train_step(params, batch, cfg=Config()):
    loss, grads = jax.value_and_grad(loss_fn)(params, batch)
    params = jax.tree.map(lambda p, g: p - cfg.learning_rate * g, params, grads)
    return params, loss


params = {"w": jnp.ones(4)}
batch = {"x": jnp.arange(4.0), "y": jnp.ones(4), "mask": jnp.zeros(4)}
params, loss = train_step(params, batch)
print("loss:", float(loss))
print("gradient has NaN:", bool(jnp.isnan(params["w"]).any()))
