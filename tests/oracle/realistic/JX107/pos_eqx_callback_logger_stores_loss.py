# oracle: raises UnexpectedTracerError: Encountered an unexpected tracer
import equinox as eqx
import jax
import jax.numpy as jnp


class LossLogger:
    def __init__(self):
        self.latest = {}

    def __call__(self, step_name, loss):
        self.latest[step_name] = loss  # error: JX107


logger = LossLogger()


def loss_fn(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean((pred - y) ** 2)


@eqx.filter_jit
def train_step(model, x, y):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
    logger("train", loss)
    return eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads))


model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
model = train_step(model, jnp.ones((4, 2)), jnp.zeros((4, 1)))
print("train loss", jnp.round(logger.latest["train"], 4))
