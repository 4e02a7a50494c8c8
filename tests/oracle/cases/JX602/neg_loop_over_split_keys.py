# oracle: stdout distinct draws: 4
import jax

key = jax.random.key(0)
draws = []
for k in jax.random.split(key, 4):
    draws.append(float(jax.random.normal(k, ())))
print("distinct draws:", len(set(draws)))
