"""The diagnostics cache: end to end through the CLI, and the :class:`Cache` class itself."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from xlalens.analyzers.core.diagnostics import Diagnostic, Position, Range
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.inputs.fileio import sha256_hex
from xlalens.analyzers.project import cache as cache_module
from xlalens.analyzers.project import runner
from xlalens.analyzers.project.cache import Cache, settings_fingerprint


def _shards(directory: Path) -> list[Path]:
    return sorted(directory.rglob("*.json"))


def _tamper(shard: Path, message: str) -> None:
    """Rewrite every cached message: a run that prints the new one was served by the cache."""
    data = json.loads(shard.read_text())
    for entry in data["entries"].values():
        for diagnostic in entry[3]:
            diagnostic["message"] = message
    shard.write_text(json.dumps(data))


# --- end to end -----------------------------------------------------------------------------


def test_second_run_is_served_from_the_cache(project, code, require_rules):
    require_rules("JX101")
    path = project.write("m.py", code.JIT_IF)
    first = project.run("check")
    cache_dir = project.root / ".xlalens_cache"
    assert (cache_dir / "CACHEDIR.TAG").is_file()
    assert (cache_dir / ".gitignore").read_text() == "*\n"
    [shard] = _shards(cache_dir)
    second = project.run("check")
    assert second.stdout == first.stdout and second.returncode == first.returncode == 1

    _tamper(shard, "SERVED FROM CACHE")
    assert "m.py:6:8: JX101 SERVED FROM CACHE" in project.run("check").stdout

    # New content is a new key: the file is checked again.
    path.write_text(code.JIT_IF.replace("x > 0", "x > 1"))
    fresh = project.run("check")
    assert "SERVED FROM CACHE" not in fresh.stdout and "JX101" in fresh.stdout


def test_other_settings_do_not_share_entries(project, code, require_rules):
    require_rules("JX101")
    project.write("m.py", code.JIT_IF)
    project.run("check")
    [shard] = _shards(project.root / ".xlalens_cache")
    _tamper(shard, "SERVED FROM CACHE")
    other = project.run("check", "--select", "JX1")
    assert "SERVED FROM CACHE" not in other.stdout and "JX101" in other.stdout
    assert len(_shards(project.root / ".xlalens_cache")) == 2


def test_no_cache_neither_reads_nor_writes(project, code, require_rules):
    require_rules("JX101")
    project.write("m.py", code.JIT_IF)
    project.run("check", "--no-cache")
    assert not (project.root / ".xlalens_cache").exists()
    project.run("check")
    [shard] = _shards(project.root / ".xlalens_cache")
    _tamper(shard, "SERVED FROM CACHE")
    assert "SERVED FROM CACHE" not in project.run("check", "--no-cache").stdout


def test_cache_dir_flag_and_environment_variable(project, tmp_path, code):
    project.write("m.py", code.CLEAN)
    project.run("check", "--cache-dir", "custom")
    assert _shards(project.root / "custom")
    env_dir = tmp_path / "from-env"
    project.run("check", env={"XLALENS_CACHE_DIR": str(env_dir)})
    assert _shards(env_dir)
    assert not (project.root / ".xlalens_cache").exists()


def test_cache_lives_in_the_project_root_when_run_from_a_subdirectory(project, code):
    project.write("pyproject.toml", "[tool.xlalens]\n")
    project.write("pkg/m.py", code.CLEAN)
    project.run("check", ".", cwd=project.root / "pkg")
    assert (project.root / ".xlalens_cache").is_dir()
    assert not (project.root / "pkg" / ".xlalens_cache").exists()


def test_corrupt_cache_is_ignored(project, code, require_rules):
    require_rules("JX101")
    project.write("m.py", code.JIT_IF)
    first = project.run("check")
    [shard] = _shards(project.root / ".xlalens_cache")
    shard.write_text("{not json")
    again = project.run("check")
    assert again.stdout == first.stdout
    json.loads(shard.read_text())  # rewritten whole


def test_fix_uses_cached_results_that_have_nothing_to_fix(project, code, require_rules):
    require_rules("JX101", "JX601")
    project.write("m.py", code.JIT_IF)
    fixable = project.write("n.py", code.AT_SET)
    project.run("check")
    [shard] = _shards(project.root / ".xlalens_cache")
    _tamper(shard, "SERVED FROM CACHE")
    result = project.run("check", "--fix")
    assert "m.py:6:8: JX101 SERVED FROM CACHE" in result.stdout
    assert "x = x.at[0].set(1.0)" in fixable.read_text()  # had a fix: checked and fixed again


# --- in process: count the engine's calls ---------------------------------------------------


@pytest.fixture
def counted_engine(monkeypatch):
    """Count ``check_source`` calls made by the runner (in-process, ``jobs=1``)."""
    calls: list[str] = []
    api = runner._engine()
    real = api.check_source

    def counting(source, path="<string>", settings=None):
        calls.append(path)
        return real(source, path, settings)

    monkeypatch.setattr(api, "check_source", counting)
    return calls


def test_warm_run_calls_the_engine_for_changed_files_only(tmp_path, code, counted_engine):
    files = [tmp_path / f"m{i}.py" for i in range(3)]
    for file in files:
        file.write_text(code.JIT_IF)
    paths = [str(f) for f in files]
    store = Cache(tmp_path / "cache", "test")
    first = runner.check_paths(paths, Settings(), jobs=1, cache=store)
    assert len(counted_engine) == 3 and first.cache_hits == 0

    counted_engine.clear()
    warm = runner.check_paths(paths, Settings(), jobs=1, cache=Cache(tmp_path / "cache", "test"))
    assert counted_engine == [] and warm.cache_hits == 3
    assert warm.diagnostics == first.diagnostics

    os.utime(files[0])  # touched, same content: still a hit
    files[1].write_text(code.CLEAN)
    third = runner.check_paths(paths, Settings(), jobs=1, cache=Cache(tmp_path / "cache", "test"))
    assert counted_engine == [paths[1]] and third.cache_hits == 2


# --- the Cache class ------------------------------------------------------------------------


def _diagnostic(path: str) -> Diagnostic:
    return Diagnostic("JX101", "message", path, Range(Position(1, 0), Position(1, 3)))


def test_unchanged_old_file_is_answered_by_stat_without_hashing(tmp_path, monkeypatch):
    file = tmp_path / "m.py"
    file.write_text("import jax\n")
    old = time.time() - 60
    os.utime(file, (old, old))  # older than RACY_SECONDS: its stat can be trusted
    store = Cache(tmp_path / "cache", "v", stamp="s")
    store.store(file, Settings(), sha256_hex(file.read_bytes()), [_diagnostic(str(file))])
    store.save()

    hashed: list[bytes] = []
    monkeypatch.setattr(cache_module, "sha256_hex", lambda data: hashed.append(data) or "x")
    fresh = Cache(tmp_path / "cache", "v", stamp="s")
    assert fresh.lookup(file, Settings()) == [_diagnostic(str(file))]
    assert hashed == []


def test_recently_modified_file_is_hashed_not_trusted_by_stat(tmp_path):
    file = tmp_path / "m.py"
    file.write_text("import jax\n")
    store = Cache(tmp_path / "cache", "v", stamp="s")
    store.store(file, Settings(), sha256_hex(file.read_bytes()), [])
    store.save()
    # Same size and (possibly) the same mtime tick, different content: must be a miss.
    file.write_text("import jaz\n")
    assert Cache(tmp_path / "cache", "v", stamp="s").lookup(file, Settings()) is None


def test_version_stamp_and_settings_separate_entries(tmp_path):
    file = tmp_path / "m.py"
    file.write_text("import jax\n")
    digest = sha256_hex(file.read_bytes())
    store = Cache(tmp_path / "cache", "v1", stamp="s")
    store.store(file, Settings(), digest, [])
    store.save()
    assert Cache(tmp_path / "cache", "v1", stamp="s").lookup(file, Settings()) == []
    assert Cache(tmp_path / "cache", "v2", stamp="s").lookup(file, Settings()) is None
    assert Cache(tmp_path / "cache", "v1", stamp="t").lookup(file, Settings()) is None
    preview = Settings(preview=True)
    assert Cache(tmp_path / "cache", "v1", stamp="s").lookup(file, preview) is None


def test_settings_fingerprint_is_stable_and_sensitive():
    assert settings_fingerprint(Settings()) == settings_fingerprint(Settings())
    assert settings_fingerprint(Settings()) != settings_fingerprint(Settings(ignore=("JX1",)))
    pfi = Settings(per_file_ignores={"a.py": ("JX1",)})
    assert settings_fingerprint(pfi) != settings_fingerprint(Settings())


def test_entries_of_deleted_files_are_dropped_on_save(tmp_path):
    keep, gone = tmp_path / "keep.py", tmp_path / "gone.py"
    for file in (keep, gone):
        file.write_text("import jax\n")
    store = Cache(tmp_path / "cache", "v", stamp="s")
    for file in (keep, gone):
        store.store(file, Settings(), sha256_hex(file.read_bytes()), [])
    gone.unlink()
    store.save()
    [shard] = _shards(tmp_path / "cache")
    assert list(json.loads(shard.read_text())["entries"]) == [str(keep)]


def test_unwritable_cache_is_reported_not_raised(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    file = tmp_path / "m.py"
    file.write_text("import jax\n")
    store = Cache(blocker / "cache", "v", stamp="s")
    store.store(file, Settings(), sha256_hex(file.read_bytes()), [])
    store.save()
    assert store.errors and "cannot write cache" in store.errors[0]


def test_the_stamp_covers_every_analyzer_room_and_the_calculators():
    roots = cache_module.stamped_packages()
    calculator = Path(cache_module.__file__).resolve().parents[2] / "explainers" / "calculators" / "blockspec.py"
    rule = (
        Path(cache_module.__file__).resolve().parents[1]
        / "rules"
        / "jax"
        / "jx101_traced_value_in_python_control_flow.py"
    )
    assert all(any(path.is_relative_to(root) for root in roots) for path in (calculator, rule))


def test_editing_a_calculator_changes_the_stamp(tmp_path):
    analyzers, explainers = tmp_path / "analyzers", tmp_path / "explainers" / "calculators"
    analyzers.mkdir()
    explainers.mkdir(parents=True)
    (analyzers / "engine.py").write_text("RULES = 1\n")
    calculator = explainers / "blockspec.py"
    calculator.write_text("def grid(): return 1\n")
    roots = (analyzers, tmp_path / "explainers")
    before = cache_module.package_stamp(roots)
    calculator.write_text("def grid(): return 2  # a changed formula\n")
    assert cache_module.package_stamp(roots) != before
