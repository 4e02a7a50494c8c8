# oracle: stdout noise equals the initial weights: True
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class ExperimentConfig:
    seed: int = 17
    width: int = 8
    noise_scale: float = 0.02


def get_rng(cfg):
    return jax.random.key(cfg.seed)


def init_params(rng, cfg):
    return {"w": cfg.noise_scale * jax.random.normal(rng, (cfg.width, cfg.width))}


def perturb(params, rng, cfg):
    noise = cfg.noise_scale * jax.random.normal(rng, params["w"].shape)
    return {"w": params["w"] + noise}, noise


cfg = ExperimentConfig()
rng = get_rng(cfg)
params = init_params(rng, cfg)
perturbed, noise = perturb(params, rng, cfg)  # error: JX602
print("noise equals the initial weights:", bool(jnp.all(noise == params["w"])))
