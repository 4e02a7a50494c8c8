# oracle: stdout compiles after 4 forecasts: 4
import jax
import jax.numpy as jnp


@jax.jit
def predict_next(history, weights):
    recent = history[-weights.shape[0]:]
    return jnp.dot(recent, weights) + 0.01 * history.mean()


def forecast(history, weights, horizon):
    series = history
    for _ in range(horizon):
        prediction = predict_next(series, weights)  # error: JX202
        series = jnp.append(series, prediction)
    return series[len(history):]


weights = jnp.array([0.2, 0.3, 0.5])
print(forecast(jnp.arange(6.0), weights, horizon=4))
print("compiles after 4 forecasts:", predict_next._cache_size())
