# oracle: stdout (5, 2)
import jax
import jax.numpy as jnp
from jax import lax


class MovingAverageTracker:
    def __init__(self, window):
        self.window = window

    def init_history(self, dim):
        return jnp.zeros((self.window, dim))

    def _update(self, history, obs):
        history = jnp.concatenate([history, obs[None]], axis=0)[-self.window :]
        return history, history.mean(axis=0)

    def smooth(self, observations):
        history = self.init_history(observations.shape[-1])
        _, averages = lax.scan(self._update, history, observations)
        return averages


tracker = MovingAverageTracker(window=3)
print(jax.jit(tracker.smooth)(jnp.arange(10.0).reshape(5, 2)).shape)
