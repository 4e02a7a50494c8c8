"""``python -m xlalens.server``: run the language server (stdio unless ``--tcp``/``--ws``)."""

from __future__ import annotations

import sys

from xlalens.server.app import main

sys.exit(main())
