# oracle: raises ValueError: Reverse-mode differentiation does not work for lax.while_loop
import jax
from jax import lax


def body(state):
    return {"x": state["x"] * 2, "n": state["n"] + 1}


def halve(x):
    state = lax.while_loop(lambda s: s["n"] < 3, body, {"x": x, "n": 0})
    y = state["x"]
    return y.sum()


jax.value_and_grad(halve)(1.0)  # error: JX305
