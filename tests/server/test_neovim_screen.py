"""What a Neovim user sees, captured from a real terminal (tmux): virtual text and a hover that fit.

The capture is written to ``$XLALENS_SCREENSHOTS`` (a folder) when set, to be looked at; the test
asserts what matters on it: every diagnostic's virtual text ends inside the window (headlines are
one clause of at most 100 characters), and the hover shows the title, headline, detail and links.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_neovim import _nvim, sample_project

COLUMNS, ROWS = 160, 48
SCRIPT = Path(__file__).parent / "nvim" / "screen.lua"


def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=30, check=True).stdout


def test_neovim_screen_shows_whole_headlines_and_a_hover_that_fits(tmp_path: Path) -> None:
    nvim = _nvim()
    if shutil.which("tmux") is None:
        # scripts/test.sh installs it; only a run outside it may go without.
        if os.environ.get("CI") == "true":
            pytest.fail("tmux is not installed (scripts/test.sh installs it with apt-get)")
        pytest.skip("tmux is not installed")
    project = sample_project(tmp_path).parent
    ready = tmp_path / "ready"
    session = f"xlalens-{os.getpid()}"
    environment = {
        "XLALENS_PY": sys.executable,
        "XLALENS_OUT": str(ready),
        "XLALENS_LINE": "10",  # the JX101 finding of the sample
        "HOME": str(tmp_path),
        "TERM": "xterm-256color",
    }
    exports = " ".join(f"{key}={value}" for key, value in environment.items())
    command = f"cd {project} && env {exports} {nvim} --clean -u {SCRIPT} train.py"
    _tmux("-L", session, "new-session", "-d", "-x", str(COLUMNS), "-y", str(ROWS), "-s", session, command)
    try:
        deadline = time.monotonic() + 60
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        screen = _tmux("-L", session, "capture-pane", "-p", "-t", session)
    finally:
        subprocess.run(["tmux", "-L", session, "kill-server"], capture_output=True, timeout=30, check=False)
    shots = os.environ.get("XLALENS_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        (Path(shots) / "neovim-hover.txt").write_text(screen, encoding="utf-8")
    assert ready.exists(), f"the hover never opened:\n{screen}"

    lines = screen.splitlines()
    flagged = [line for line in lines if "■" in line or "JX1" in line]
    assert any("Python `if` on traced value `loss > 10.0`" in line for line in lines), screen
    for line in flagged:
        assert len(line.rstrip()) <= COLUMNS, line
    assert any("JX101" in line and "traced-value-in-python-control-flow" in line for line in lines), screen
    assert any("Explainer: how this works" in line for line in lines), screen
