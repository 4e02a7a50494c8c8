# oracle: stdout aux loss
import jax
import jax.numpy as jnp
from jax import lax


def load_balancing_loss(router_probs):
    importance = router_probs.mean(axis=0)
    return importance.shape[0] * jnp.sum(importance**2)


def no_aux_loss(router_probs):
    return 0.0


class MoELoss:
    def __init__(self, aux_weight=0.01):
        self.aux_weight = aux_weight

    def __call__(self, logits, router_logits, labels, training):
        probs = jax.nn.softmax(router_logits, axis=-1)
        aux = lax.cond(training, load_balancing_loss, no_aux_loss, probs)
        nll = -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], -1))
        return nll + self.aux_weight * aux, aux


loss_fn = jax.jit(MoELoss())
total, aux = loss_fn(jnp.zeros((4, 3)), jnp.ones((4, 2)), jnp.array([0, 1, 2, 0]), jnp.array(False))
print("aux loss", aux, aux.dtype)
