# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import jax
import jax.numpy as jnp
from jax import lax


class BeamDecoder:
    def __init__(self, vocab=6, max_len=4):
        self.vocab = vocab
        self.max_len = max_len
        self.transition = jnp.arange(vocab * vocab, dtype=jnp.float32).reshape(vocab, vocab) % 5

    def _decode_step(self, carry, t):
        tokens, last = carry
        nxt = jnp.argmax(self.transition[last])
        tokens[t] = nxt  # error: JX601
        return (tokens, nxt), None

    def decode(self, start):
        tokens = jnp.zeros(self.max_len, jnp.int32)
        (tokens, _), _ = lax.scan(self._decode_step, (tokens, start), jnp.arange(self.max_len))
        return tokens


decoder = BeamDecoder()
print(jax.jit(decoder.decode)(jnp.array(1)))
