# oracle: raises AttributeError: jax.device_put_sharded is deprecated; use jax.device_put instead.
import jax as J
import jax.numpy as jnp


class DataParallel:
    def shard(self, batch):
        parts = jnp.split(batch, len(J.devices()))
        return J.device_put_sharded(parts, J.devices())  # error: JX710


DataParallel().shard(jnp.ones((8, 2)))
