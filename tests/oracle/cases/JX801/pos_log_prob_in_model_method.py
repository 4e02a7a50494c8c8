# oracle: stdout gradient has NaN: True
import jax
import jax.numpy as jnp


class Poisson:
    def __init__(self, floor):
        self.floor = floor

    def log_rate(self, rate):
        return jnp.where(rate > 0, jnp.log(rate), self.floor)  # error: JX801

    def nll(self, rate, counts):
        return jnp.sum(rate - counts * self.log_rate(rate))


model = Poisson(floor=-30.0)
rate = jnp.array([1.0, 0.0, 2.0])
counts = jnp.array([1.0, 0.0, 3.0])
grads = jax.grad(model.nll)(rate, counts)
print("gradient has NaN:", bool(jnp.isnan(grads).any()))
