# oracle: stdout same order every epoch: False
import jax
import jax.numpy as jnp


class DataLoader:
    def __init__(self, data, batch_size, seed=0):
        self.data = data
        self.batch_size = batch_size
        self.key = jax.random.key(seed)

    def __iter__(self):
        self.key, shuffle_key = jax.random.split(self.key)
        order = jax.random.permutation(shuffle_key, len(self.data))
        for start in range(0, len(self.data), self.batch_size):
            yield self.data[order[start : start + self.batch_size]]


loader = DataLoader(jnp.arange(32.0), batch_size=8)
epochs = []
for epoch in range(3):
    first_batches = [batch for batch in loader][0]
    epochs.append(first_batches)
print("same order every epoch:", all(bool(jnp.all(e == epochs[0])) for e in epochs))
