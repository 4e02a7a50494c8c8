# oracle: stdout identical: True
import jax

key = jax.random.key(0)
weights = jax.random.normal(key, (3,))
bias = jax.random.normal(key, (3,))  # error: JX602
print("identical:", bool((weights == bias).all()))
