# oracle: stdout train (4, 1)
import equinox as eqx
import jax
import jax.numpy as jnp


class ShapeLogger:
    def __init__(self):
        self.latest = {}

    def __call__(self, step_name, value):
        self.latest[step_name] = (value.shape, str(value.dtype))


logger = ShapeLogger()


def loss_fn(model, x, y):
    pred = jax.vmap(model)(x)
    logger("train", pred)
    return jnp.mean((pred - y) ** 2)


@eqx.filter_jit
def train_step(model, x, y):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
    return eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads)), loss


model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
model, loss = train_step(model, jnp.ones((4, 2)), jnp.zeros((4, 1)))
print("train", logger.latest["train"][0], loss.shape)
