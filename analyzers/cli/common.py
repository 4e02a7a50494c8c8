"""What every ``xlalens`` subcommand shares: exit codes and the usage error."""

from __future__ import annotations

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """A mistake in how xlalens was invoked or configured (exit code 2)."""
