# oracle: raises AttributeError: module 'jax' has no attribute 'xla_computation'
import jax as jx
import jax.numpy as jnp


class Exporter:
    def __init__(self, fn):
        self.fn = fn

    def hlo(self, x):
        return jx.xla_computation(self.fn)(x).as_hlo_text()  # error: JX703


print(Exporter(jnp.cos).hlo(jnp.ones(3))[:20])
