# oracle: stdout same noise: False
import jax
import jax.numpy as jnp


class NoiseSchedule:
    def __init__(self, seed, sigma):
        self.key = jax.random.PRNGKey(seed)
        self.sigma = sigma

    def perturb(self, x):
        self.key, k1, k2 = jax.random.split(self.key, 3)
        noise = self.sigma * jax.random.normal(k1, x.shape)
        jitter = self.sigma * jax.random.normal(k2, x.shape)
        return x + noise, x + jitter


schedule = NoiseSchedule(0, 0.1)
a, b = schedule.perturb(jnp.zeros(5))
print("same noise:", bool(jnp.all(a == b)))
