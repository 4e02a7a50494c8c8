# oracle: stdout probs
import jax
import jax.numpy as jnp

TEMPERATURES = [0.5, 1.0, 2.0]


def best_temperature_index(val_losses):
    return jnp.argmin(val_losses)


def calibrated_probs(logits, val_losses):
    idx = best_temperature_index(val_losses)
    temperature = jnp.asarray(TEMPERATURES)[idx]
    num_choices = len(TEMPERATURES)
    assert val_losses.shape[0] == num_choices
    return jax.nn.softmax(logits / temperature, axis=-1)


@jax.jit
def predict(logits, val_losses):
    return calibrated_probs(logits, val_losses)


probs = predict(jnp.array([[1.0, 2.0, 0.5]]), jnp.array([0.3, 0.1, 0.4]))
print("probs", probs)
