# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax
import jax.numpy as jnp

TEMPERATURES = [0.5, 1.0, 2.0]


def best_temperature_index(val_losses):
    return int(jnp.argmin(val_losses))  # error: JX102


def calibrated_probs(logits, val_losses):
    idx = best_temperature_index(val_losses)
    return jax.nn.softmax(logits / TEMPERATURES[idx], axis=-1)


@jax.jit
def predict(logits, val_losses):
    return calibrated_probs(logits, val_losses)


probs = predict(jnp.array([[1.0, 2.0, 0.5]]), jnp.array([0.3, 0.1, 0.4]))
print(probs)
