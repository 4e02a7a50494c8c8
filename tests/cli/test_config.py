"""Finding and validating configuration, and applying command-line overrides."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.engine import registry
from xlalens.analyzers.engine.rule import RuleStatus
from xlalens.analyzers.project.config import (
    VALID_KEYS,
    ConfigError,
    Overrides,
    SettingsResolver,
    apply_overrides,
    find_config,
    load_config,
)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_nearest_config_wins_and_xlalens_toml_beats_pyproject(tmp_path):
    top = _write(tmp_path / "pyproject.toml", "[tool.xlalens]\npreview = true\n")
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    assert find_config(deep) == top
    pyproject = _write(tmp_path / "a" / "pyproject.toml", "[tool.xlalens]\n")
    assert find_config(deep) == pyproject
    xlalens_toml = _write(tmp_path / "a" / "xlalens.toml", "")
    assert find_config(deep) == xlalens_toml
    assert find_config(deep / "file.py") == xlalens_toml


def test_pyproject_without_a_table_is_skipped(tmp_path):
    top = _write(tmp_path / "xlalens.toml", "preview = true\n")
    _write(tmp_path / "sub" / "pyproject.toml", "[project]\nname = 'x'\n")
    assert find_config(tmp_path / "sub") == top


def test_load_config_reads_every_key(tmp_path):
    file = _write(
        tmp_path / "xlalens.toml",
        """
select = ["JX1"]
ignore = ["JX102"]
extend-select = ["JX6"]
exclude = ["gen"]
extend-exclude = ["vendored"]
preview = true
explainer-base-url = "http://localhost:1/x"
tpu-generation = "v5e"
device-count = 8

[per-file-ignores]
"tests/*" = ["JX1"]
""",
    )
    settings = load_config(file)
    assert settings == Settings(
        select=("JX1",),
        ignore=("JX102",),
        extend_select=("JX6",),
        per_file_ignores={"tests/*": ("JX1",)},
        exclude=("gen",),
        extend_exclude=("vendored",),
        preview=True,
        explainer_base_url="http://localhost:1/x",
        tpu_generation="v5e",
        device_count=8,
        root=str(tmp_path),
    )
    # `root` and `x64_in_package` are found, not configured: where the file is, what its package does.
    found = {"root", "x64_in_package"}
    assert {f.name for f in dataclasses.fields(Settings)} - found == {key.replace("-", "_") for key in VALID_KEYS}


def test_unknown_key_names_key_file_and_valid_keys(tmp_path):
    file = _write(tmp_path / "pyproject.toml", "[tool.xlalens]\nselct = []\n")
    with pytest.raises(ConfigError) as error:
        load_config(file)
    message = str(error.value)
    assert "`selct`" in message and str(file) in message
    assert ", ".join(VALID_KEYS) in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('select = "JX1"', "`select` must be a list of strings"),
        ("preview = 1", "`preview` must be true or false"),
        ("device-count = 0", "`device-count` must be a positive integer"),
        ("device-count = true", "`device-count` must be a positive integer"),
        ("tpu-generation = 5", "`tpu-generation` must be a non-empty string"),
        ('per-file-ignores = ["x"]', "`per-file-ignores` must be a table"),
        ('[per-file-ignores]\n"a.py" = "JX1"', "`per-file-ignores.a.py` must be a list of strings"),
        ('ignore = ["QQ1"]', "`ignore`: unknown rule selector 'QQ1'"),
        ('[per-file-ignores]\n"a.py" = ["QQ1"]', "`per-file-ignores.a.py`: unknown rule selector"),
    ],
)
def test_wrong_values_are_config_errors(tmp_path, text, expected):
    file = _write(tmp_path / "xlalens.toml", text + "\n")
    with pytest.raises(ConfigError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        load_config(file)


def test_tool_xlalens_must_be_a_table(tmp_path):
    file = _write(tmp_path / "pyproject.toml", '[tool]\nxlalens = "on"\n')
    with pytest.raises(ConfigError, match="must be a table"):
        find_config(tmp_path)
    with pytest.raises(ConfigError, match="must be a table"):
        load_config(file)


def test_resolver_uses_defaults_rooted_at_cwd_without_config(tmp_path):
    resolver = SettingsResolver(tmp_path)
    assert resolver.for_directory(tmp_path) == Settings(root=str(tmp_path))


def test_resolver_memoizes_one_settings_object_per_config(tmp_path):
    _write(tmp_path / "xlalens.toml", "preview = true\n")
    (tmp_path / "a" / "b").mkdir(parents=True)
    resolver = SettingsResolver(tmp_path)
    first = resolver.for_directory(tmp_path / "a" / "b")
    assert first.preview and first.root == str(tmp_path)
    assert resolver.for_directory(tmp_path / "a") is first
    assert resolver.for_path(tmp_path / "a" / "b" / "m.py") is first


def test_resolver_with_explicit_config_ignores_nearer_files(tmp_path):
    chosen = _write(tmp_path / "conf" / "x.toml", "device-count = 4\n")
    _write(tmp_path / "sub" / "xlalens.toml", "device-count = 2\n")
    resolver = SettingsResolver(tmp_path, config_file=chosen)
    assert resolver.for_directory(tmp_path / "sub").device_count == 4
    with pytest.raises(ConfigError, match="does not exist"):
        SettingsResolver(tmp_path, config_file=tmp_path / "missing.toml")


def test_overrides_select_replaces_the_configured_selection():
    configured = Settings(select=("JX1",), ignore=("JX101",), extend_select=("JX6",))
    result = apply_overrides(configured, Overrides(select=("JX2",), ignore=("JX201",)))
    assert (result.select, result.ignore, result.extend_select) == (("JX2",), ("JX201",), ())


def test_overrides_without_configured_selection_pass_selectors_through():
    result = apply_overrides(Settings(), Overrides(ignore=("JX1",), extend_select=("JX101",)))
    assert (result.select, result.ignore, result.extend_select) == (None, ("JX1",), ("JX101",))


def _codes(settings: Settings) -> list[str]:
    return [
        rule.code
        for rule in registry.select_rules(settings.select, settings.ignore, settings.extend_select, settings.preview)
    ]


def test_layered_overrides_resolve_like_ruff(require_rules):
    require_rules("JX101", "JX102", "JX106", "JX601")
    # The configuration ignores JX106; the command line brings exactly that code back.
    back = apply_overrides(Settings(ignore=("JX106",)), Overrides(extend_select=("JX106",)))
    assert "JX106" in _codes(back)
    # The configuration adds JX101 specifically; a broader --ignore on the command line still wins.
    gone = apply_overrides(Settings(select=("JX6",), extend_select=("JX101",)), Overrides(ignore=("JX1",)))
    assert _codes(gone) == [c for c in _codes(Settings(select=("JX6",))) if not c.startswith("JX1")]
    # Within the command line, the longest selector wins.
    mixed = apply_overrides(Settings(ignore=("JX6",)), Overrides(ignore=("JX1",), extend_select=("JX102",)))
    assert "JX102" in _codes(mixed) and "JX101" not in _codes(mixed) and "JX601" not in _codes(mixed)


def test_layered_overrides_keep_preview_rules_out_unless_asked(monkeypatch, require_rules):
    require_rules("JX101")
    preview_rule = type(
        "PreviewThing",
        (registry.get_rule("JX101"),),
        {"code": "JX199", "status": RuleStatus.PREVIEW},
    )
    monkeypatch.setitem(registry._RULES, "JX199", preview_rule)
    layered = apply_overrides(Settings(ignore=("JX102",)), Overrides(ignore=("JX103",)))
    assert "JX199" not in _codes(layered)
    with_preview = apply_overrides(Settings(ignore=("JX102",)), Overrides(ignore=("JX103",), preview=True))
    assert "JX199" in _codes(with_preview)
    named = apply_overrides(Settings(ignore=("JX102",)), Overrides(extend_select=("JX199",)))
    assert "JX199" in _codes(named)


def test_overrides_validate_selectors():
    with pytest.raises(registry.UnknownSelectorError, match="valid selectors"):
        Overrides(select=("NOPE",)).validate()


def test_readme_documents_every_configuration_key():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z-]+)` \|", readme, flags=re.MULTILINE))
    assert set(VALID_KEYS) <= rows, f"undocumented keys: {sorted(set(VALID_KEYS) - rows)}"
