# oracle: stdout compiles after 3 and 6 steps: 3 6
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Curriculum:
    start_len: int = 16
    max_len: int = 512
    growth: int = 16

    def seq_len(self, step):
        return min(self.max_len, self.start_len + self.growth * step)


@functools.partial(jax.jit, static_argnames="seq_len")
def lm_loss(embed, tokens, seq_len):
    h = embed[tokens[:, :seq_len]]
    logits = h @ embed.T
    targets = jax.nn.one_hot(tokens[:, 1 : seq_len + 1], embed.shape[0])
    return -jnp.mean(jnp.sum(targets * jax.nn.log_softmax(logits), -1))


curriculum = Curriculum()
embed = jnp.ones((32, 8)) * 0.1
tokens = jnp.zeros((2, 513), jnp.int32)
compiles = []
for step in range(6):
    loss = lm_loss(embed, tokens, seq_len=curriculum.seq_len(step))  # error: JX203
    compiles.append(lm_loss._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
