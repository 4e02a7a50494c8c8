# oracle: stdout gradient has NaN: True
import jax
import jax.numpy as jnp


def entropy(logits):
    probs = jax.nn.softmax(logits)
    probs = probs * (logits > -1e9)
    return -jnp.sum(jnp.where(probs > 0, probs * jnp.log(probs), 0.0))  # error: JX801


logits = jnp.array([2.0, 1.0, -1e10])
value, grads = jax.value_and_grad(entropy)(logits)
print("entropy:", float(value))
print("gradient has NaN:", bool(jnp.isnan(grads).any()))
