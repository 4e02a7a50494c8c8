# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import equinox as eqx
import jax
import jax.numpy as jnp


class Sparsifier(eqx.Module):
    threshold: float = eqx.field(static=True)

    def small_entries(self, w):
        return jnp.argwhere(jnp.abs(w) < self.threshold)  # error: JX105

    def __call__(self, w):
        idx = self.small_entries(w)
        return w.at[idx[:, 0], idx[:, 1]].set(0.0)


@eqx.filter_jit
def prune(model, sparsifier):
    w = sparsifier(model.weight)
    return eqx.tree_at(lambda m: m.weight, model, w)


layer = eqx.nn.Linear(3, 2, key=jax.random.PRNGKey(0))
print(prune(layer, Sparsifier(0.3)).weight)
