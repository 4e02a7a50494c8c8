#!/usr/bin/env bash
# Create (or reuse) the venv of the torch_xla oracle tier and print its Python interpreter's path.
#
# torch_xla 2.9.0 is built against torch 2.9.0 exactly, so it cannot share the main test venv. The
# venv lives outside the checkout, in ${XLALENS_TORCH_XLA_VENV:-$HOME/.cache/xlalens/torch_xla-2.9.0},
# and is reused while its marker file is there and `import torch_xla` still works.
#
# The only torch 2.9.0 wheel for Linux on PyPI is the CUDA build: the plain install downloads about
# 4.2 GB. pip's cache is turned off (it would keep another 4.2 GB), and afterwards the three
# packages torch never loads on a CPU-only machine (triton, cusolver, nvtx) are removed, which
# leaves about 6 GB on disk. Progress goes to stderr; stdout carries only the interpreter's path.
set -euo pipefail

TORCH_VERSION=2.9.0
TORCH_XLA_VERSION=2.9.0
venv="${XLALENS_TORCH_XLA_VENV:-$HOME/.cache/xlalens/torch_xla-$TORCH_XLA_VERSION}"
marker="$venv/.xlalens-torch-xla-ready"
python="$venv/bin/python"

works() {
    [ -f "$marker" ] && PJRT_DEVICE=CPU "$python" -c \
        "import torch, torch_xla; assert torch.__version__.startswith('$TORCH_VERSION'), torch.__version__" \
        >/dev/null 2>&1
}

if works; then
    echo "torch_xla oracle venv: reusing $venv" >&2
    echo "$python"
    exit 0
fi

start=$(date +%s)
echo "torch_xla oracle venv: building $venv (about 4.2 GB to download)" >&2
# The marker is written last, so an interrupted build is never mistaken for a ready venv.
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
python3 -m venv "$venv"
# The machine-wide pip constraint (if any) caps torch for other projects; this venv pins its own.
PIP_CONSTRAINT="" "$python" -m pip install --quiet --no-cache-dir --disable-pip-version-check \
    "torch==$TORCH_VERSION" "torch_xla==$TORCH_XLA_VERSION" >&2
"$python" -m pip uninstall --quiet --yes triton nvidia-cusolver-cu12 nvidia-nvtx-cu12 >&2
PJRT_DEVICE=CPU "$python" -c "import torch, torch_xla; print('torch', torch.__version__, 'torch_xla', \
torch_xla.__version__, (torch.ones(2, device=torch_xla.device()) * 3).sum().item())" >&2
touch "$marker"
echo "torch_xla oracle venv: ready in $(($(date +%s) - start)) s, $(du -sh "$venv" | cut -f1) on disk" >&2
echo "$python"
