#!/usr/bin/env bash
# Install xlalens with its test dependencies (jax for the oracle included) and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet -e '.[test]'
export JAX_PLATFORMS=cpu
set +e
pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: failing loudly" >&2
    exit 1
fi
exit "$status"
