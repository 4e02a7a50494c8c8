# oracle: stdout identical steps: True
import jax
import jax.numpy as jnp


def diffuse(x0, key, n_steps):
    def step(x, _):
        noise = jax.random.normal(key, x.shape)  # error: JX602
        x = 0.9 * x + 0.1 * noise
        return x, noise

    return jax.lax.scan(step, x0, None, length=n_steps)


_, noises = diffuse(jnp.zeros(4), jax.random.key(0), 5)
print("identical steps:", bool(jnp.all(noises == noises[0])))
