# oracle: stdout metric has NaN: False
import jax
import jax.numpy as jnp


@jax.jit
def log_perplexity(probs):
    return -jnp.mean(jnp.where(probs > 0, jnp.log(probs), 0.0))


probs = jnp.array([0.5, 0.25, 0.0])
metric = log_perplexity(probs)
print("metric has NaN:", bool(jnp.isnan(metric)))
