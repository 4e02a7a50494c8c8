# oracle: stdout distinct draws: 4
import jax

key = jax.random.key(0)
draws = []
for _ in range(4):
    key, subkey = jax.random.split(key)
    draws.append(float(jax.random.normal(subkey, ())))
print("distinct draws:", len(set(draws)))
