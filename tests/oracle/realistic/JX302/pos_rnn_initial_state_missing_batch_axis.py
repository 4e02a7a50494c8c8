# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import flax.linen as nn
import jax
import jax.numpy as jnp
from jax import lax


class ElmanRNN(nn.Module):
    hidden: int = 4

    def initial_carry(self):
        return jnp.zeros((self.hidden,))

    @nn.compact
    def __call__(self, xs):
        w_x = self.param("w_x", nn.initializers.lecun_normal(), (xs.shape[-1], self.hidden))
        w_h = self.param("w_h", nn.initializers.orthogonal(), (self.hidden, self.hidden))

        def step(h, x_t):
            h = jnp.tanh(x_t @ w_x + h @ w_h)
            return h, h

        h0 = self.initial_carry()
        _, hs = lax.scan(step, h0, xs.swapaxes(0, 1))  # error: JX302
        return hs.swapaxes(0, 1)


model = ElmanRNN()
xs = jnp.ones((2, 5, 3))
variables = model.init(jax.random.PRNGKey(0), xs)
print(jax.jit(model.apply)(variables, xs).shape)
