#!/usr/bin/env bash
# Build, check and package the VS Code extension, as CI does (scripts/test.sh runs this):
# npm ci, compile, lint, unit tests, bundled/libs, the esbuild bundle, the integration tests,
# then the .vsix, whose contents are listed. Needs Node >= 20, and XLALENS_PYTHON (default
# python3) with xlalens installed; reaches the npm registry and PyPI.
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
step "bundled/libs"
bash scripts/bundle.sh
step "bundle the extension (esbuild)"
npm run --silent bundle:extension
step "integration tests (the bundle loads; the extension's server command, driven over LSP)"
node --test --test-reporter=spec out/test/integration/*.test.js
step "package (vsce)"
rm -f ./*.vsix
npx vsce package --no-dependencies --allow-missing-repository --out xlalens.vsix
"$XLALENS_PYTHON" scripts/vsix_contents.py xlalens.vsix
step "done"
