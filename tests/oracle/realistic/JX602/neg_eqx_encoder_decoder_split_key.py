# oracle: stdout encoder and decoder weights equal: False
import equinox as eqx
import jax
import jax.numpy as jnp


class AutoEncoder(eqx.Module):
    encoder: eqx.nn.Linear
    decoder: eqx.nn.Linear

    def __init__(self, dim, key):
        enc_key, dec_key = jax.random.split(key)
        self.encoder = eqx.nn.Linear(dim, dim, key=enc_key)
        self.decoder = eqx.nn.Linear(dim, dim, key=dec_key)

    def __call__(self, x):
        return self.decoder(jax.nn.relu(self.encoder(x)))


model = AutoEncoder(8, jax.random.key(0))
out = jax.vmap(model)(jnp.ones((4, 8)))
print("encoder and decoder weights equal:", bool(jnp.all(model.encoder.weight == model.decoder.weight)))
