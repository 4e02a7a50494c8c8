"""Per-API facts keyed by fully qualified name, kept in validating registries."""
