# oracle: stdout encoder and decoder weights equal: True
import equinox as eqx
import jax
import jax.numpy as jnp


class AutoEncoder(eqx.Module):
    encoder: eqx.nn.Linear
    decoder: eqx.nn.Linear

    def __init__(self, dim, key):
        self.encoder = eqx.nn.Linear(dim, dim, key=key)
        self.decoder = eqx.nn.Linear(dim, dim, key=key)  # error: JX602

    def __call__(self, x):
        return self.decoder(jax.nn.relu(self.encoder(x)))


model = AutoEncoder(8, jax.random.key(0))
out = jax.vmap(model)(jnp.ones((4, 8)))
print("encoder and decoder weights equal:", bool(jnp.all(model.encoder.weight == model.decoder.weight)))
