# oracle: raises TypeError: cond branch outputs must have the same pytree structure
import flax.linen as nn
import jax
import jax.numpy as jnp
from jax import lax


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(nn.relu(nn.Dense(8)(x)))


model = Classifier()


def with_metrics(params, x, labels):
    logits = model.apply(params, x)
    loss = -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], -1))
    return loss, {"accuracy": jnp.mean(jnp.argmax(logits, -1) == labels)}


def loss_only(params, x, labels):
    logits = model.apply(params, x)
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], -1))


@jax.jit
def evaluate(params, x, labels, log_metrics):
    return lax.cond(log_metrics, with_metrics, loss_only, params, x, labels)  # error: JX304


x = jnp.ones((4, 2))
params = model.init(jax.random.PRNGKey(0), x)
print(evaluate(params, x, jnp.array([0, 1, 2, 0]), jnp.array(True)))
