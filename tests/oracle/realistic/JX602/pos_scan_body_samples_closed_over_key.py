# oracle: stdout same noise every step: True
import jax
import jax.numpy as jnp
from jax import lax


def langevin_chain(score_params, x0, key, num_steps=8, step_size=0.01):
    def step(x, _):
        score = -x @ score_params
        noise = jax.random.normal(key, x.shape)  # error: JX602
        x = x + step_size * score + jnp.sqrt(2 * step_size) * noise
        return x, noise

    return lax.scan(step, x0, None, length=num_steps)


@jax.jit
def sample(score_params, x0, key):
    return langevin_chain(score_params, x0, key)


final, noises = sample(jnp.eye(4), jnp.zeros(4), jax.random.key(0))
print("same noise every step:", bool(jnp.all(noises == noises[0])))
