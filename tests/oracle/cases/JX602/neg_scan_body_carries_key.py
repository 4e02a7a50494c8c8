# oracle: stdout identical steps: False
import jax
import jax.numpy as jnp


def diffuse(x0, key, n_steps):
    def step(carry, _):
        x, key = carry
        key, sub = jax.random.split(key)
        noise = jax.random.normal(sub, x.shape)
        return (0.9 * x + 0.1 * noise, key), noise

    return jax.lax.scan(step, (x0, key), None, length=n_steps)


_, noises = diffuse(jnp.zeros(4), jax.random.key(0), 5)
print("identical steps:", bool(jnp.all(noises == noises[0])))
