# oracle: runs
import jax.numpy as jnp


class checkpoint:
    saved = []

    @classmethod
    def save(cls, tree):
        cls.saved.append(tree)


checkpoint.save({"w": jnp.ones(2)})
print(len(checkpoint.saved))
