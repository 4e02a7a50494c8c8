"""xlalens language server: a thin LSP adapter (pygls) over :mod:`xlalens.analyzers`.

Start it with ``xlalens server`` or ``python -m xlalens.server``; see :mod:`xlalens.server.app`.
"""
