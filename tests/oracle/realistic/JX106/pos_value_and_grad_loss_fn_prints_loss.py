# oracle: stdout contrastive loss GradTracer(
import jax
import jax.numpy as jnp


def cosine_sim(a, b):
    a = a / jnp.linalg.norm(a, axis=-1, keepdims=True)
    b = b / jnp.linalg.norm(b, axis=-1, keepdims=True)
    return a @ b.T


def contrastive_loss(params, x1, x2, temperature=0.1):
    z1, z2 = x1 @ params, x2 @ params
    logits = cosine_sim(z1, z2) / temperature
    loss = -jnp.mean(jnp.diag(jax.nn.log_softmax(logits, axis=-1)))
    print("contrastive loss", loss)  # error: JX106
    return loss


@jax.jit
def train_step(params, x1, x2):
    loss, grads = jax.value_and_grad(contrastive_loss)(params, x1, x2)
    return params - 0.05 * grads, loss


params = jnp.eye(4)[:, :3]
x = jnp.arange(12.0).reshape(3, 4)
params, loss = train_step(params, x, x + 0.1)
