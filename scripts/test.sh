#!/usr/bin/env bash
# Install xlalens with its test dependencies (jax for the oracle, Playwright and Chromium for the
# explainer pages, pytest-lsp and Neovim for the language server) and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet -e '.[test]'
# The browser tests drive Debian's Chromium (Playwright's wheel brings only its driver, no browser);
# the Neovim screen test runs Neovim in a real terminal, tmux.
missing=()
if [ ! -x "${XLALENS_CHROMIUM:-/usr/bin/chromium}" ]; then missing+=(chromium); fi
if ! command -v tmux >/dev/null; then missing+=(tmux); fi
if [ "${#missing[@]}" -gt 0 ]; then
    sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
export JAX_PLATFORMS=cpu
# The exported site's calculators run in the browser under Pyodide; its browser tests load the
# pyodide npm package (the release the export pins) from a cache outside the checkout, installed
# once, so no test reaches the internet. The tests fail, naming the folder, when it is missing.
pyodide_version=$(python3 -c 'from xlalens.explainers.export import PYODIDE_VERSION; print(PYODIDE_VERSION)')
pyodide_prefix="${XDG_CACHE_HOME:-$HOME/.cache}/xlalens/pyodide-$pyodide_version"
export XLALENS_PYODIDE_DIR="$pyodide_prefix/node_modules/pyodide"
if [ ! -f "$XLALENS_PYODIDE_DIR/pyodide.asm.wasm" ]; then
    npm install --prefix "$pyodide_prefix" --no-save --no-audit --no-fund --ignore-scripts \
        "pyodide@$pyodide_version" >/dev/null ||
        echo "pyodide@$pyodide_version could not be installed: the static-site browser tests will fail" >&2
fi
# The torch_xla oracle tier runs from its own venv (torch 2.9.0 + torch_xla 2.9.0, about 6 GB),
# built once into a cache outside the checkout and reused (scripts/torch_xla_oracle_env.sh).
# XLALENS_SKIP_TORCH_XLA=1 skips it locally; in CI its tests fail when the venv cannot be built.
if [ "${XLALENS_SKIP_TORCH_XLA:-0}" != "1" ] || [ "${CI:-}" = "true" ]; then
    if torch_xla_python=$(bash scripts/torch_xla_oracle_env.sh); then
        export XLALENS_TORCH_XLA_PYTHON="$torch_xla_python"
    else
        echo "the torch_xla oracle venv could not be built: its tests will fail" >&2
    fi
fi
# The VS Code extension: npm ci, tsc, eslint, its unit and integration tests and a .vsix per platform
# (vscode-client/scripts/ci.sh, about 12 minutes). XLALENS_SKIP_VSCODE_CLIENT=1 skips it locally; in
# CI it always runs, and a failure fails the run once pytest has run too.
client_status=0
if [ "${XLALENS_SKIP_VSCODE_CLIENT:-0}" != "1" ] || [ "${CI:-}" = "true" ]; then
    bash vscode-client/scripts/ci.sh || client_status=$?
    # tests/test_packaging.py then checks the .vsix files ci.sh built instead of building them again.
    if [ "$client_status" -eq 0 ]; then export XLALENS_VSIX_DIR="$PWD/vscode-client/vsix"; fi
fi
set +e
# -m "": every tier, including the ones a plain `pytest` leaves out (oracle, browser, vsix).
pytest -m "" "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: failing loudly" >&2
    exit 1
fi
if [ "$client_status" -ne 0 ]; then
    echo "the VS Code extension's build, tests or packaging failed (vscode-client/scripts/ci.sh above)" >&2
    exit 1
fi
exit "$status"
