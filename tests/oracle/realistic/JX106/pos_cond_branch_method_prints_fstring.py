# oracle: stdout rejecting proposal with log_ratio=JitTracer(
import jax
import jax.numpy as jnp
from jax import lax


class MetropolisSampler:
    def __init__(self, step_size=0.5):
        self.step_size = step_size

    def log_prob(self, x):
        return -0.5 * jnp.sum(x**2)

    def _accept(self, args):
        x, proposal, log_ratio = args
        return proposal

    def _reject(self, args):
        x, proposal, log_ratio = args
        print(f"rejecting proposal with log_ratio={log_ratio}")  # error: JX106
        return x

    def step(self, x, key):
        k1, k2 = jax.random.split(key)
        proposal = x + self.step_size * jax.random.normal(k1, x.shape)
        log_ratio = self.log_prob(proposal) - self.log_prob(x)
        accept = jnp.log(jax.random.uniform(k2)) < log_ratio
        return lax.cond(accept, self._accept, self._reject, (x, proposal, log_ratio))


sampler = MetropolisSampler()
x = jax.jit(sampler.step)(jnp.zeros(2), jax.random.PRNGKey(0))
