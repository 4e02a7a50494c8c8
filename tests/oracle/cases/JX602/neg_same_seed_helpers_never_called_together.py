# oracle: stdout checks passed: 2
import jax
import jax.numpy as jnp


def check_normal_mean():
    key = jax.random.PRNGKey(0)
    sample = jax.random.normal(key, (20000,))
    return abs(float(jnp.mean(sample))) < 0.05


def check_uniform_range():
    key = jax.random.PRNGKey(0)
    sample = jax.random.uniform(key, (20000,))
    return bool(jnp.all((sample >= 0) & (sample < 1)))


CHECKS = [check_normal_mean, check_uniform_range]
print("checks passed:", sum(check() for check in CHECKS))
