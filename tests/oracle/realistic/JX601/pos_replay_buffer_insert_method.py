# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import jax
import jax.numpy as jnp


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = jnp.zeros((capacity, obs_dim))
        self.rewards = jnp.zeros(capacity)
        self.capacity = capacity
        self.ptr = 0

    def add(self, obs, reward):
        self.obs[self.ptr] = obs  # error: JX601
        self.rewards[self.ptr] = reward  # error: JX601
        self.ptr = (self.ptr + 1) % self.capacity


@jax.jit
def policy_step(w, obs):
    action = jnp.tanh(obs @ w)
    return obs + 0.1 * action, -jnp.sum(obs**2)


buffer = ReplayBuffer(8, 2)
obs = jnp.ones(2)
for _ in range(2):
    next_obs, reward = policy_step(jnp.eye(2), obs)
    buffer.add(obs, reward)
    obs = next_obs
print(buffer.ptr)
