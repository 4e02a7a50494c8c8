# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import equinox as eqx
import jax
import jax.numpy as jnp


def check_inputs(x):
    assert jnp.all(jnp.isfinite(x)), "non-finite input"  # error: JX101
    return x


class Regressor(eqx.Module):
    hidden: eqx.nn.Linear
    out: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.hidden = eqx.nn.Linear(3, 16, key=k1)
        self.out = eqx.nn.Linear(16, 1, key=k2)

    def __call__(self, x):
        x = check_inputs(x)
        return self.out(jax.nn.tanh(self.hidden(x)))


def loss_fn(model, x, y):
    preds = jax.vmap(model)(x)
    return jnp.mean((preds - y) ** 2)


@eqx.filter_jit
def train_step(model, x, y):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
    model = jax.tree.map(lambda p, g: p - 0.01 * g, model, grads)
    return model, loss


model = Regressor(jax.random.PRNGKey(0))
x = jnp.ones((5, 3))
model, loss = train_step(model, x, jnp.zeros((5, 1)))
print(loss)
