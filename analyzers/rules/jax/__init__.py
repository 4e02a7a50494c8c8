"""Rules for JAX and Pallas code (codes ``JX``)."""
