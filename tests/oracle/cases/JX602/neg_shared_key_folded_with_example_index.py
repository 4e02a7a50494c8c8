# oracle: stdout all samples share one noise draw: False
import jax
import jax.numpy as jnp


def sample_gaussian(key, index, mean, log_std):
    own = jax.random.fold_in(key, index)
    return mean + jnp.exp(log_std) * jax.random.normal(own, mean.shape)


def reparameterize(key, means, log_stds):
    indices = jnp.arange(means.shape[0])
    return jax.vmap(sample_gaussian, in_axes=(None, 0, 0, 0))(key, indices, means, log_stds)


means = jnp.zeros((5, 3))
samples = reparameterize(jax.random.key(0), means, jnp.zeros((5, 3)))
print("all samples share one noise draw:", bool(jnp.all(samples == samples[0])))
