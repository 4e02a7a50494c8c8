# oracle: stdout compiles: 1
import jax
import jax.numpy as jnp


@jax.jit
def sgd(w, lr):
    return w - lr * w


w = jnp.ones(4)
for step in range(10):
    lr = 0.1 / (step + 1)
    w = sgd(w, lr)  # Python floats: one weakly typed float32 key
print("compiles:", sgd._cache_size())
