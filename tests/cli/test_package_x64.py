"""JX802 across a package: a 64-bit dtype is not reported when another module of the package turns x64 on.

torchax asks for ``int64`` in its op translations and turns x64 on in ``enable_accuracy_mode()``, in
another module; an entry point that runs ``jax.config.update("jax_enable_x64", True)`` before importing
the model is the common case. Whether x64 is on is then decided at run time, so the rule stays silent.
"""

from __future__ import annotations

import os

import pytest
from xlalens.analyzers.project.config import SettingsResolver

OPS = """\
import jax.numpy as jnp


def cummax_indices(x):
    return jnp.zeros_like(x, dtype=jnp.int64)
"""

MODES = """\
import jax


def enable_accuracy_mode():
    jax.config.update("jax_enable_x64", True)
"""


def _codes(completed) -> list[str]:
    return [line.split()[1] for line in completed.stdout.splitlines() if ": JX" in line]


def test_a_switch_elsewhere_in_the_package_silences_jx802(project):
    project.write("torchax/__init__.py", "")
    project.write("torchax/ops/__init__.py", "")
    project.write("torchax/ops/jaten.py", OPS)
    project.write("torchax/modes.py", MODES)
    completed = project.run("check", "--select", "JX802", "--output-format", "concise", "torchax/ops/jaten.py")
    assert _codes(completed) == [], completed.stdout


def test_without_a_switch_the_finding_stays(project):
    project.write("torchax/__init__.py", "")
    project.write("torchax/ops/__init__.py", "")
    project.write("torchax/ops/jaten.py", OPS)
    project.write("torchax/modes.py", MODES.replace('"jax_enable_x64", True', '"jax_platforms", "cpu"'))
    completed = project.run("check", "--select", "JX802", "--output-format", "concise", "torchax")
    assert _codes(completed) == ["JX802"], completed.stdout


def test_a_folder_of_scripts_is_its_own_files_not_its_subfolders(project):
    project.write("train.py", 'import jax\njax.config.update("jax_enable_x64", True)\n')
    project.write("model.py", OPS)
    project.write("tools/probe.py", OPS)
    resolver = SettingsResolver(project.root)
    assert resolver.for_directory(project.root).x64_in_package
    assert not resolver.for_directory(project.root / "tools").x64_in_package
    completed = project.run("check", "--select", "JX802", "--output-format", "concise", ".")
    assert [line.split(":")[0] for line in completed.stdout.splitlines() if "JX802" in line] == ["tools/probe.py"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_reading_the_package_skips_devices_fifos_and_huge_files(project):
    project.write("pkg/__init__.py", "")
    project.write("pkg/ops.py", OPS)
    (project.root / "pkg" / "zero.py").symlink_to("/dev/zero")
    resolver = SettingsResolver(project.root)
    assert not resolver.for_directory(project.root / "pkg").x64_in_package
    completed = project.run("check", "--select", "JX802", "--output-format", "concise", "pkg/ops.py")
    assert _codes(completed) == ["JX802"], completed.stdout + completed.stderr
