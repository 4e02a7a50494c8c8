# oracle: stdout action shape (2,)
import jax
import jax.numpy as jnp
import numpy as np


class Policy:
    def __init__(self, obs_dim, act_dim, seed=0):
        self.w = jax.random.normal(jax.random.PRNGKey(seed), (obs_dim, act_dim)) * 0.1
        self.rng = np.random.default_rng(seed)
        self.act_fn = jax.jit(lambda w, obs: jnp.tanh(obs @ w))

    def explore(self, obs, sigma=0.1):
        action = np.asarray(self.act_fn(self.w, obs)).copy()
        action += sigma * self.rng.standard_normal(action.shape).astype(np.float32)
        return np.clip(action, -1.0, 1.0)


policy = Policy(3, 2)
print("action shape", policy.explore(jnp.ones(3)).shape)
