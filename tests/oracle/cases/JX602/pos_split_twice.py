# oracle: stdout identical: True
import jax
from jax import random


def init(key):
    k1, k2 = random.split(key)
    k3, k4 = random.split(key)  # error: JX602
    return random.normal(k1, (2,)), random.normal(k3, (2,))


a, b = init(random.key(0))
print("identical:", bool((a == b).all()))
