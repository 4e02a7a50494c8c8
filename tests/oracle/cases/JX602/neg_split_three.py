# oracle: stdout identical: False
import jax

key = jax.random.key(0)
key, w_key, b_key = jax.random.split(key, 3)
weights = jax.random.normal(w_key, (3,))
bias = jax.random.normal(b_key, (3,))
print("identical:", bool((weights == bias).all()))
