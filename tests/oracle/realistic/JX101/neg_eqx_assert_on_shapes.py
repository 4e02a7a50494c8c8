# oracle: stdout loss
import equinox as eqx
import jax
import jax.numpy as jnp


def check_inputs(x, in_features):
    assert x.ndim == 1 and x.shape[0] == in_features, f"bad input shape {x.shape}"
    return x


class Regressor(eqx.Module):
    hidden: eqx.nn.Linear
    out: eqx.nn.Linear
    in_features: int = eqx.field(static=True)

    def __init__(self, in_features, key):
        k1, k2 = jax.random.split(key)
        self.in_features = in_features
        self.hidden = eqx.nn.Linear(in_features, 16, key=k1)
        self.out = eqx.nn.Linear(16, 1, key=k2)

    def __call__(self, x):
        x = check_inputs(x, self.in_features)
        x = jnp.where(jnp.isfinite(x), x, 0.0)
        return self.out(jax.nn.tanh(self.hidden(x)))


def loss_fn(model, x, y):
    preds = jax.vmap(model)(x)
    return jnp.mean((preds - y) ** 2)


@eqx.filter_jit
def train_step(model, x, y):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
    model = jax.tree.map(lambda p, g: p - 0.01 * g, model, grads)
    return model, loss


model = Regressor(3, jax.random.PRNGKey(0))
x = jnp.ones((5, 3))
model, loss = train_step(model, x, jnp.zeros((5, 1)))
print("loss", loss)
