# oracle: stdout same mask for every batch of an epoch: False
import jax
import jax.numpy as jnp


def random_erase(key, images, frac=0.25):
    mask = jax.random.bernoulli(key, 1.0 - frac, images.shape[1:])
    return images * mask, mask


def run_epochs(base_key, loader, num_epochs):
    masks_per_epoch = []
    for epoch in range(num_epochs):
        epoch_key = jax.random.fold_in(base_key, epoch)
        masks = []
        for step, images in enumerate(loader):
            images, mask = random_erase(jax.random.fold_in(epoch_key, step), images)
            masks.append(mask)
        masks_per_epoch.append(masks)
    return masks_per_epoch


loader = [jnp.ones((4, 8, 8))] * 3
masks_per_epoch = run_epochs(jax.random.key(0), loader, num_epochs=2)
same = all(bool(jnp.all(m == masks[0])) for masks in masks_per_epoch for m in masks)
print("same mask for every batch of an epoch:", same)
