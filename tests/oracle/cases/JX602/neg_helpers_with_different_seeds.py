# oracle: stdout layers start equal: False
import jax
import jax.numpy as jnp


def encoder_weights(dim):
    key = jax.random.PRNGKey(1)
    return jax.random.normal(key, (dim, dim))


def decoder_weights(dim):
    key = jax.random.PRNGKey(2)
    return jax.random.normal(key, (dim, dim))


def init(dim=8):
    return {"encoder": encoder_weights(dim), "decoder": decoder_weights(dim)}


params = init()
print("layers start equal:", bool(jnp.all(params["encoder"] == params["decoder"])))
