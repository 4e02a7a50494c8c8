# oracle: stdout identical: True
import jax
import jax.numpy as jnp


def noisy_steps(x, key):
    draws = []
    for _ in range(4):
        draws.append(jax.random.normal(key, x.shape))  # error: JX602
    return draws


draws = noisy_steps(jnp.zeros(3), jax.random.key(0))
print("identical:", all(bool((d == draws[0]).all()) for d in draws))
