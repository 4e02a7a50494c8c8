# oracle: stdout same noise: True
import jax
import jax.numpy as jnp


class NoiseSchedule:
    def __init__(self, seed, sigma):
        self.key = jax.random.PRNGKey(seed)
        self.sigma = sigma

    def perturb(self, x):
        noise = self.sigma * jax.random.normal(self.key, x.shape)
        jitter = self.sigma * jax.random.normal(self.key, x.shape)  # error: JX602
        return x + noise, x + jitter


schedule = NoiseSchedule(0, 0.1)
a, b = schedule.perturb(jnp.zeros(5))
print("same noise:", bool(jnp.all(a == b)))
