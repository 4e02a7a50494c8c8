# oracle: stdout centroids
import jax
import jax.numpy as jnp
from jax import lax


def assign(points, centroids):
    dists = jnp.sum((points[:, None, :] - centroids[None, :, :]) ** 2, axis=-1)
    return jax.nn.one_hot(jnp.argmin(dists, axis=1), centroids.shape[0])


def update_centroids(points, centroids):
    onehot = assign(points, centroids)
    sums = jnp.einsum("nk,nd->kd", onehot, points)
    counts = onehot.sum(axis=0)
    return sums / jnp.maximum(counts, 1.0)[:, None]


@jax.jit
def kmeans(points, init_centroids):
    body = lambda i, c: update_centroids(points, c)
    return lax.fori_loop(0, 5, body, init_centroids)


points = jnp.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 4.9]])
print("centroids", kmeans(points, points[jnp.array([0, 2])]))
