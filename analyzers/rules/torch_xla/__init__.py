"""Rules for torch_xla code (codes ``TX``): graph cuts and host syncs, recompiles, environment."""
