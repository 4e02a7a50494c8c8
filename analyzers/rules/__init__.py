"""Built-in rules, one module per rule, grouped by library (``jax``, ``torch_xla``)."""
