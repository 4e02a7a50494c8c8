# oracle: stdout pruned
import equinox as eqx
import jax
import jax.numpy as jnp


class Sparsifier(eqx.Module):
    threshold: float = eqx.field(static=True)

    def small_entries(self, w):
        return jnp.abs(w) < self.threshold

    def __call__(self, w):
        mask = self.small_entries(w)
        return jnp.where(mask, 0.0, w)


@eqx.filter_jit
def prune(model, sparsifier):
    w = sparsifier(model.weight)
    return eqx.tree_at(lambda m: m.weight, model, w)


layer = eqx.nn.Linear(3, 2, key=jax.random.PRNGKey(0))
pruned = prune(layer, Sparsifier(0.3))
print("pruned", int((pruned.weight == 0).sum()))
