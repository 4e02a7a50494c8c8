# oracle: stdout (2, 5, 4)
import flax.linen as nn
import jax
import jax.numpy as jnp
from jax import lax


class ElmanRNN(nn.Module):
    hidden: int = 4

    def initial_carry(self, batch_size):
        return jnp.zeros((batch_size, self.hidden))

    @nn.compact
    def __call__(self, xs):
        w_x = self.param("w_x", nn.initializers.lecun_normal(), (xs.shape[-1], self.hidden))
        w_h = self.param("w_h", nn.initializers.orthogonal(), (self.hidden, self.hidden))

        def step(h, x_t):
            h = jnp.tanh(x_t @ w_x + h @ w_h)
            return h, h

        h0 = self.initial_carry(xs.shape[0])
        _, hs = lax.scan(step, h0, xs.swapaxes(0, 1))
        return hs.swapaxes(0, 1)


model = ElmanRNN()
xs = jnp.ones((2, 5, 3))
variables = model.init(jax.random.PRNGKey(0), xs)
print(jax.jit(model.apply)(variables, xs).shape)
