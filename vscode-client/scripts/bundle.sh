#!/usr/bin/env bash
# Build bundled/libs for `xlalens.importStrategy: useBundled`: the xlalens wheel built from this
# checkout plus its pure-Python dependencies, so the extension runs its own xlalens with any
# Python >= 3.11 and nothing installed. XLALENS_PYTHON picks the interpreter that builds (default python3).
set -euo pipefail
client_dir="$(cd "$(dirname "$0")/.." && pwd)"
repo_dir="$(dirname "$client_dir")"
libs="$client_dir/bundled/libs"
python="${XLALENS_PYTHON:-python3}"
wheels="$(mktemp -d)"
trap 'rm -rf "$wheels"' EXIT

"$python" -m pip wheel -qq --no-deps --wheel-dir "$wheels" "$repo_dir"
wheel="$(ls "$wheels"/xlalens-*.whl)"
rm -rf "$libs"
"$python" -m pip install -qq --no-compile --no-deps --target "$libs" "$wheel"
"$python" "$client_dir/scripts/bundled_requirements.py" "$wheel" >"$wheels/requirements.txt"
# Only py3-none-any wheels: one .vsix serves every platform and Python version, and a native
# dependency added to pyproject.toml fails here instead of shipping for one platform only.
"$python" -m pip install -qq --no-compile --target "$libs" \
    --only-binary=:all: --platform any --implementation py --abi none --python-version 3.11 \
    -r "$wheels/requirements.txt"
# Console scripts are for installed environments; the launcher imports the packages directly.
rm -rf "$libs/bin"
# pip records where each wheel came from (a temporary directory of this machine): ship no such path.
find "$libs" -path '*.dist-info/direct_url.json' -delete
sed -i '/\.dist-info\/direct_url\.json,/d' "$libs"/*.dist-info/RECORD
echo "bundled/libs: $(du -sh "$libs" | cut -f1)"
ls "$libs" | sed -n 's/\.dist-info$//p' | sed 's/^/  /'
