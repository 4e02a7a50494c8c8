#!/usr/bin/env bash
# Build the .vsix packages: the universal one without libcst, which the Marketplace serves to every
# platform that has no package of its own, and one per platform in scripts/native_wheels.py
# (`vsce package --target`, with that platform's libcst under bundled/native). Each is listed and
# checked by vsix_contents.py.
#
# Usage: package.sh [OUT_DIR] [TARGET...]   (default: vsix/, every target). Writes
# OUT_DIR/xlalens.vsix and OUT_DIR/xlalens-<target>.vsix. Needs `npm ci` done, and XLALENS_PYTHON
# (default python3) with pip; reaches PyPI. Leaves bundled/ as the universal package has it.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${XLALENS_PYTHON:-python3}"
out="$(mkdir -p "${1:-vsix}" && cd "${1:-vsix}" && pwd)"
shift || true
if [ "$#" -eq 0 ]; then
    mapfile -t targets < <("$python" scripts/native_wheels.py targets)
else
    targets=("$@")
fi

rm -f "$out"/xlalens*.vsix
bash scripts/bundle.sh
npx vsce package --no-dependencies --allow-missing-repository --out "$out/xlalens.vsix"
"$python" scripts/vsix_contents.py "$out/xlalens.vsix"
for target in "${targets[@]}"; do
    "$python" scripts/native_wheels.py install "$target" bundled/native
    # vsce's secret scan reads every file as text and takes minutes over libcst's compiled modules;
    # the universal package above, scanned, holds every file of this one but PyPI's libcst wheels.
    npx vsce package --no-dependencies --allow-missing-repository --allow-package-all-secrets \
        --target "$target" --out "$out/xlalens-$target.vsix"
    "$python" scripts/vsix_contents.py "$out/xlalens-$target.vsix"
done
rm -rf bundled/native
