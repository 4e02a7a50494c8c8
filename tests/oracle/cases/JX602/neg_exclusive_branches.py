# oracle: stdout draws: 3
import jax


def sample(key, train):
    if train:
        x = jax.random.uniform(key, (3,))
    else:
        x = jax.random.normal(key, (3,))
    return x


print("draws:", sample(jax.random.key(0), True).size)
