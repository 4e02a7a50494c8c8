# oracle: stdout losses
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class State(NamedTuple):
    w: jax.Array
    step: jax.Array


class WarmupTrainer:
    def __init__(self, base_lr: float, warmup_steps: int):
        self.base_lr = base_lr
        self.warmup_steps = warmup_steps

    def learning_rate(self, step):
        warm = self.base_lr * step / self.warmup_steps
        return jnp.where(step < self.warmup_steps, warm, self.base_lr) if self.warmup_steps > 0 else self.base_lr

    def _body(self, state: State, x):
        grad = 2.0 * (state.w - x)
        lr = self.learning_rate(state.step)
        new = State(state.w - lr * grad, state.step + 1)
        return new, jnp.sum((state.w - x) ** 2)

    def fit(self, w, data):
        state, losses = lax.scan(self._body, State(w, jnp.array(0)), data)
        return state.w, losses


trainer = WarmupTrainer(base_lr=0.1, warmup_steps=3)
fit = jax.jit(trainer.fit)
w, losses = fit(jnp.zeros(2), jnp.ones((5, 2)))
print("losses", losses)
