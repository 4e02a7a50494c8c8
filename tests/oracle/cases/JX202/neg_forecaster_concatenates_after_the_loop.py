# oracle: stdout compiles after 4 forecasts: 1
import jax
import jax.numpy as jnp


@jax.jit
def predict_next(recent, weights):
    return jnp.dot(recent, weights)


def forecast(history, weights, horizon):
    recent = history[-weights.shape[0]:]
    predictions = []
    for _ in range(horizon):
        prediction = predict_next(recent, weights)
        predictions.append(prediction)
        recent = jnp.append(recent[1:], prediction)
    return jnp.concatenate([history, jnp.stack(predictions)])


weights = jnp.array([0.2, 0.3, 0.5])
print(forecast(jnp.arange(6.0), weights, horizon=4))
print("compiles after 4 forecasts:", predict_next._cache_size())
