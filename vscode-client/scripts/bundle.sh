#!/usr/bin/env bash
# Build bundled/libs for `xlalens.importStrategy: useBundled`: the xlalens wheel built from this
# checkout plus its pure-Python dependencies, so the extension runs its own xlalens with any
# Python >= 3.11 and nothing installed. XLALENS_PYTHON picks the interpreter that builds (default python3).
#
# Usage: bundle.sh [TARGET]. With a vsce target (linux-x64, darwin-arm64, ...; `host` for this
# machine's) bundled/native also gets libcst for that platform, one folder per CPython ABI
# (scripts/native_wheels.py); without one bundled/native is removed, as the universal package has none.
set -euo pipefail
client_dir="$(cd "$(dirname "$0")/.." && pwd)"
repo_dir="$(dirname "$client_dir")"
libs="$client_dir/bundled/libs"
native="$client_dir/bundled/native"
python="${XLALENS_PYTHON:-python3}"
target="${1:-}"
if [ "$target" = host ]; then
    target="$("$python" "$client_dir/scripts/native_wheels.py" host)" || {
        echo "bundle.sh: libcst has no wheel for this machine's platform" >&2
        exit 1
    }
elif [ -n "$target" ] && ! "$python" "$client_dir/scripts/native_wheels.py" targets | grep -qx -- "$target"; then
    echo "bundle.sh: no libcst wheels for target $target; the targets: $("$python" "$client_dir/scripts/native_wheels.py" targets | tr '\n' ' ')" >&2
    exit 2
fi
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
if [ -n "$target" ]; then
    "$python" "$client_dir/scripts/native_wheels.py" install "$target" "$native"
    echo "bundled/native ($target): $(du -sh "$native" | cut -f1), $(ls "$native" | tr '\n' ' ')"
else
    rm -rf "$native"
fi
