# oracle: stdout all samples share one noise draw: True
import jax
import jax.numpy as jnp


def sample_gaussian(key, mean, log_std):
    return mean + jnp.exp(log_std) * jax.random.normal(key, mean.shape)


def reparameterize(key, means, log_stds):
    return jax.vmap(sample_gaussian, in_axes=(None, 0, 0))(key, means, log_stds)  # error: JX602


means = jnp.zeros((5, 3))
samples = reparameterize(jax.random.key(0), means, jnp.zeros((5, 3)))
print("all samples share one noise draw:", bool(jnp.all(samples == samples[0])))
