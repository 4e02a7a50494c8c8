# oracle: stdout logits: VmapTracer(
import equinox as eqx
import jax
import jax.numpy as jnp


class Classifier(eqx.Module):
    body: eqx.nn.MLP
    num_classes: int = eqx.field(static=True)

    def __init__(self, num_classes, key):
        self.num_classes = num_classes
        self.body = eqx.nn.MLP(4, num_classes, 8, 1, key=key)

    def __call__(self, x):
        logits = self.body(x)
        print("logits:", logits)  # error: JX106
        return logits


def loss_fn(model, x, labels):
    logits = jax.vmap(model)(x)
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], -1))


@eqx.filter_jit
def train_step(model, x, labels):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, labels)
    return eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads)), loss


model = Classifier(3, jax.random.PRNGKey(0))
train_step(model, jnp.ones((2, 4)), jnp.array([0, 2]))
