#!/usr/bin/env bash
# Build, check and package the VS Code extension, as CI does (scripts/test.sh runs this):
# npm ci, compile, lint, unit tests, bundled/libs with this machine's libcst, the esbuild bundle,
# the integration tests, then the packages in vsix/ (scripts/package.sh: one per platform and the
# universal one), whose contents are listed and checked. Needs Node >= 20, and XLALENS_PYTHON
# (default python3) with xlalens installed; reaches the npm registry and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
export XLALENS_PYTHON="${XLALENS_PYTHON:-python3}"
started=$SECONDS
step() { echo "== vscode-client: $1 (at $((SECONDS - started)) s)"; }

if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' 2>/dev/null; then
    echo "vscode-client: Node.js >= 20 is required (found: $(node --version 2>/dev/null || echo none))" >&2
    exit 1
fi

step "npm ci"
npm ci --no-audit --no-fund --loglevel=error
step "compile (tsc, strict)"
npm run --silent compile
step "lint (eslint)"
npm run --silent lint
step "unit tests (node --test, mocked vscode)"
node --test --test-reporter=spec out/test/unit/*.test.js
step "bundled/libs and bundled/native (this machine's platform)"
# The integration tests then run the bundled server with the libcst this machine's package ships.
bash scripts/bundle.sh "$("$XLALENS_PYTHON" scripts/native_wheels.py host || true)"
step "bundle the extension (esbuild)"
npm run --silent bundle:extension
step "integration tests (the bundle loads; the extension's server command, driven over LSP)"
node --test --test-reporter=spec out/test/integration/*.test.js
step "package (vsce): every platform's .vsix and the universal one"
bash scripts/package.sh vsix
step "done"
