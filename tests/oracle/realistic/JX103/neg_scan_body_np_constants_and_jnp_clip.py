# oracle: stdout returns
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


class ReturnsCalculator:
    def __init__(self, gamma=0.99, reward_clip=1.0):
        self.gamma = np.float32(gamma)
        self.reward_clip = float(np.abs(reward_clip))

    def clip_reward(self, r):
        return jnp.clip(r, -self.reward_clip, self.reward_clip)

    def _backward(self, next_return, step):
        reward, done = step
        ret = self.clip_reward(reward) + self.gamma * next_return * (1.0 - done)
        return ret, ret

    def discounted_returns(self, rewards, dones):
        _, returns = lax.scan(self._backward, jnp.zeros(()), (rewards, dones), reverse=True)
        return returns


calc = ReturnsCalculator()
rewards = jnp.array([0.5, 2.0, -3.0, 1.0])
dones = jnp.array([0.0, 0.0, 0.0, 1.0])
returns = jax.jit(calc.discounted_returns)(rewards, dones)
print("returns", np.round(np.asarray(returns), 3))
