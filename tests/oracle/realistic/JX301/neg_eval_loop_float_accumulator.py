# oracle: stdout accuracy 0.0
import jax
import jax.numpy as jnp
from jax import lax


def predict(w, x):
    return jnp.argmax(x @ w, axis=-1)


def batch_accuracy(w, xs, ys, i):
    return jnp.mean(predict(w, xs[i]) == ys[i])


class Evaluator:
    def __init__(self, num_batches):
        self.num_batches = num_batches

    def _body(self, i, total, w, xs, ys):
        return total + batch_accuracy(w, xs, ys, i)

    def evaluate(self, w, xs, ys):
        total = jnp.array(0.0)
        total = lax.fori_loop(0, self.num_batches, lambda i, t: self._body(i, t, w, xs, ys), total)
        return total / self.num_batches


evaluator = Evaluator(num_batches=2)
xs = jnp.arange(24.0).reshape(2, 4, 3)
ys = jnp.zeros((2, 4), jnp.int32)
print("accuracy", jax.jit(evaluator.evaluate)(jnp.eye(3), xs, ys))
