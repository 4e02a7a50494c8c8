# oracle: stdout identical: True
import jax

key = jax.random.key(7)
samples = [jax.random.uniform(key, (2,)) for _ in range(3)]  # error: JX602
print("identical:", all(bool((s == samples[0]).all()) for s in samples))
