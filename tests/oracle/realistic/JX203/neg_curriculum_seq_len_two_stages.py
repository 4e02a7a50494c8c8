# oracle: stdout compiles after 3 and 6 steps: 1 2
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Curriculum:
    short_len: int = 128
    long_len: int = 512
    switch_step: int = 4

    def seq_len(self, step):
        return self.short_len if step < self.switch_step else self.long_len


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
    loss = lm_loss(embed, tokens, seq_len=curriculum.seq_len(step))
    compiles.append(lm_loss._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
