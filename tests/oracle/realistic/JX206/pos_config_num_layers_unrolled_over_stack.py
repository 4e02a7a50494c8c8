# oracle: stdout matmuls in the program: 96
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
        for i in range(cfg.num_layers):  # error: JX206
            x = x + jax.nn.gelu(x @ stack[i])
        return x

    return forward


cfg = ModelConfig()
forward = make_forward(cfg)
stack = init_stack(jax.random.key(0), cfg)
jaxpr = jax.make_jaxpr(forward)(stack, jnp.ones((2, cfg.width)))
eqns = jaxpr.eqns[0].params["jaxpr"].jaxpr.eqns
print("matmuls in the program:", sum(e.primitive.name == "dot_general" for e in eqns))
