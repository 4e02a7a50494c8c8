# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax.numpy as jnp
from flax import nnx


class PositionalEmbedding(nnx.Module):
    def __init__(self, max_len, dim, rngs):
        self.table = nnx.Embed(max_len, dim, rngs=rngs)

    def __call__(self, seq_len):
        positions = jnp.arange(seq_len)  # error: JX104
        return self.table(positions)


class TinyEncoder(nnx.Module):
    def __init__(self, rngs):
        self.tok = nnx.Embed(16, 4, rngs=rngs)
        self.pos = PositionalEmbedding(32, 4, rngs)

    def __call__(self, tokens, lengths):
        seq_len = lengths.max()
        return self.tok(tokens) + self.pos(seq_len)[None]


@nnx.jit
def encode(model, tokens, lengths):
    return model(tokens, lengths)


model = TinyEncoder(nnx.Rngs(0))
tokens = jnp.array([[1, 2, 3], [4, 5, 0]])
print(encode(model, tokens, jnp.array([3, 2])).shape)
