# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


def soft_cap(logits, cap):
    return cap * np.tanh(logits / cap)  # error: JX103


class Decoder(nn.Module):
    vocab: int = 11
    logit_cap: float = 30.0

    def setup(self):
        self.embed = nn.Embed(self.vocab, 8)
        self.proj = nn.Dense(self.vocab)

    def __call__(self, tokens):
        h = self.embed(tokens)
        return soft_cap(self.proj(h), self.logit_cap)


model = Decoder()
tokens = jnp.array([[1, 2, 3, 4]])
variables = model.init(jax.random.PRNGKey(0), tokens)


@jax.jit
def loss_fn(variables, tokens):
    logits = model.apply(variables, tokens[:, :-1])
    logp = jax.nn.log_softmax(logits)
    return -jnp.take_along_axis(logp, tokens[:, 1:, None], axis=-1).mean()


print(loss_fn(variables, tokens))
