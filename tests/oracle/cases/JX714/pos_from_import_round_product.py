# oracle: raises ImportError: cannot import name 'product' from 'jax.numpy'
from jax.numpy import array, product, round_  # error: JX714

print(product(round_(array([1.2, 2.7]))))
