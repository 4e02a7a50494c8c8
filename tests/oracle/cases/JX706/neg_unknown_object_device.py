# oracle: runs
class Camera:
    def device(self):
        return "cam0"


def read(sensor):
    return sensor.device()


import jax.numpy as jnp

print(read(Camera()), jnp.ones(2).sum())
