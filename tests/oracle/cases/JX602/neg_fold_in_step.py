# oracle: stdout distinct draws: 4
import jax

key = jax.random.key(0)
draws = [float(jax.random.normal(jax.random.fold_in(key, step), ())) for step in range(4)]
print("distinct draws:", len(set(draws)))
