# oracle: stdout encoder and decoder weights equal: False
import jax
import jax.numpy as jnp


def init_encoder(in_dim, latent):
    key = jax.random.PRNGKey(42)
    return {"w": jax.random.normal(key, (in_dim, latent)) / jnp.sqrt(in_dim), "b": jnp.zeros(latent)}


def init_decoder(latent, out_dim):
    key = jax.random.PRNGKey(43)
    return {"w": jax.random.normal(key, (latent, out_dim)) / jnp.sqrt(latent), "b": jnp.zeros(out_dim)}


def init_autoencoder(dim, latent):
    return {"encoder": init_encoder(dim, latent), "decoder": init_decoder(latent, dim)}


params = init_autoencoder(16, 16)
print("encoder and decoder weights equal:", bool(jnp.all(params["encoder"]["w"] == params["decoder"]["w"])))
