# oracle: stdout matmuls in the program: 0
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    num_layers: int = 96
    width: int = 16


def init_stack(key, cfg):
    return jax.random.normal(key, (cfg.num_layers, cfg.width, cfg.width)) / cfg.width**0.5


def make_forward(cfg):
    @jax.jit
    def forward(stack, x):
        def layer(x, w):
            return x + jax.nn.gelu(x @ w), None

        x, _ = jax.lax.scan(layer, x, stack)
        return x

    return forward


cfg = ModelConfig()
forward = make_forward(cfg)
stack = init_stack(jax.random.key(0), cfg)
jaxpr = jax.make_jaxpr(forward)(stack, jnp.ones((2, cfg.width)))
eqns = jaxpr.eqns[0].params["jaxpr"].jaxpr.eqns
print("matmuls in the program:", sum(e.primitive.name == "dot_general" for e in eqns))
