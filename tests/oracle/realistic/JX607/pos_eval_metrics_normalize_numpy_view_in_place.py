# oracle: raises ValueError: output array is read-only
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def confusion_matrix(preds, labels, num_classes=3):
    idx = labels * num_classes + preds
    return jnp.bincount(idx, length=num_classes * num_classes).reshape(num_classes, num_classes)


class Evaluator:
    def __init__(self):
        self.per_class = None

    def summarize(self, cm):
        cm = np.asarray(cm, dtype=np.int32)
        np.maximum(cm, 0, out=cm)  # error: JX607
        self.per_class = np.diag(cm) / cm.sum(axis=1).clip(min=1)
        return self.per_class


evaluator = Evaluator()
cm = confusion_matrix(jnp.array([0, 1, 2, 2]), jnp.array([0, 1, 1, 2]))
print(evaluator.summarize(cm))
