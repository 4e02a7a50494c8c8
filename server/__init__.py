"""xlalens language server: a thin LSP adapter over :mod:`xlalens.analyzers`."""
