"""The server's pure parts, in process: positions, noqa edits, settings, hover text, kept diagnostics."""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import xlalens.server
from lsprotocol import types
from xlalens.analyzers.api import check_source
from xlalens.analyzers.core.diagnostics import Diagnostic, Position, Range, RelatedLocation, Severity
from xlalens.analyzers.core.noqa import noqa_code_at, noqa_edit
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.core.source import SourceText
from xlalens.explainers.calculators import Calculator, CalculatorInputError, Field, Row
from xlalens.server.documents import DocumentLinter, DocumentSnapshot, LintResult, keep_last_good
from xlalens.server.hover import calculator_markdown, diagnostic_markdown, rule_markdown
from xlalens.server.positions import PositionConverter
from xlalens.server.settings import ClientSettings, SettingsStore, parse_client_settings, section_of

from .samples import TRAIN

SERVER_MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(xlalens.server.__path__, prefix="xlalens.server.")
    if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", SERVER_MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


# -- positions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "character"),
    [("utf-16", 8), ("utf-8", 11), ("utf-32", 7)],
)
def test_positions_count_the_negotiated_code_units(encoding: str, character: int) -> None:
    source = SourceText("x = 1\ns = 'é😀' + y\n")
    converter = PositionConverter(source, encoding)
    engine = Position(2, 7)  # the quote after the emoji
    assert converter.to_lsp(engine) == types.Position(line=1, character=character)
    assert converter.from_lsp(types.Position(line=1, character=character)) == engine


def test_positions_clamp_past_the_end_and_split_lines_like_python() -> None:
    converter = PositionConverter(SourceText("a\r\nb\x0cc\rd"), "utf-16")
    assert converter.to_lsp(Position(2, 3)) == types.Position(line=1, character=3)  # form feed is not a line break
    assert converter.to_lsp(Position(9, 0)) == types.Position(line=2, character=1)
    assert converter.from_lsp(types.Position(line=7, character=0)) == Position(3, 1)


# -- noqa -----------------------------------------------------------------------------------------


def test_noqa_edit_writes_extends_or_declines() -> None:
    source = SourceText(
        'x = f(y)   \nz = g(y)  # noqa: JX101\nw = h(y)  # noqa\ns = f("""a\nb""") + f(y)\nt = a + \\\n    b\n'
        'u = f("# not a comment")\n'
    )
    assert noqa_edit(source.line(1), 1, "JX106").content == "  # noqa: JX106"
    assert noqa_edit(source.line(1), 1, "JX106").range == Range(Position(1, 8), Position(1, 11))
    assert noqa_edit(source.line(2), 2, "JX106").content == "# noqa: JX101, JX106"
    assert noqa_edit(source.line(2), 2, "JX101") is None
    assert noqa_edit(source.line(3), 3, "JX106") is None
    assert noqa_edit(source.line(4), 4, "JX106", 4) is None, "line 4 ends inside a string"
    assert noqa_edit(source.line(5), 5, "JX106", 0) is None, (
        "line 5 starts inside that string; the flagged code is after it"
    )
    assert noqa_edit(source.line(5), 5, "JX106", 9).content == "  # noqa: JX106"
    assert noqa_edit(source.line(6), 6, "JX106", 4) is None, "line 6 continues with a backslash"
    assert noqa_edit(source.line(8), 8, "JX106", 4).content == "  # noqa: JX106"


def test_noqa_code_under_the_cursor() -> None:
    line = "x = f(y)  # noqa: JX101,JX106 trailing words"
    assert noqa_code_at(line, 18) == "JX101"
    assert noqa_code_at(line, 25) == "JX106"
    assert noqa_code_at(line, 3) is None
    assert noqa_code_at("s = '# noqa: JX101'", 14) is None, "inside a string, not a comment"


# -- settings -------------------------------------------------------------------------------------


def test_client_settings_validate_and_keep_defaults() -> None:
    settings, problems = parse_client_settings(
        {"select": ["jx1", "QQ1"], "severity": {"JX106": "hint", "JX1": "loud"}, "debounceMs": -1, "preview": None}
    )
    assert settings.select == ("JX1",)
    assert settings.debounce_ms == 150
    assert settings.severity_of("JX106", Severity.WARNING) == types.DiagnosticSeverity.Hint
    assert settings.severity_of("JX101", Severity.ERROR) == types.DiagnosticSeverity.Error
    assert len(problems) == 3


def test_sections_in_every_shape_clients_send() -> None:
    assert section_of({"xlalens": {"preview": True}}) == {"preview": True}
    assert section_of({"preview": True, "interpreter": ["python"]}) == {"preview": True}
    assert section_of({"settings": {"xlalens": {"ignore": ["JX1"]}}}) == {"ignore": ["JX1"]}
    assert section_of(None) is None
    assert section_of({"other": {}}) is None


def test_settings_store_merges_project_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.xlalens]\nignore = ['JX601']\nexplainer-base-url = 'https://docs.example.org'\n", encoding="utf-8"
    )
    store = SettingsStore(str(tmp_path))
    store.update(section={"extendSelect": ["JX601"], "explainerBaseUrl": "https://mirror.example.org"})
    settings = store.for_path(str(tmp_path / "pkg" / "train.py"))
    codes = [d.code for d in check_source(TRAIN, str(tmp_path / "train.py"), settings)]
    assert "JX601" in codes, "the client's extendSelect applies on top of the project's ignore"
    assert settings.explainer_base_url == "https://mirror.example.org"
    generation = store.generation
    store.reload()
    assert store.generation == generation + 1


def test_settings_store_survives_a_broken_configuration(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.xlalens]\nselect = 'JX1'\n", encoding="utf-8")
    store = SettingsStore(str(tmp_path))
    store.update(section={"configuration": "missing.toml"})
    settings = store.for_path(str(tmp_path / "train.py"))
    assert settings.select is None
    errors = store.take_errors()
    assert any("missing.toml" in e for e in errors) and any("must be a list of strings" in e for e in errors)
    assert store.take_errors() == []


# -- hover ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Inputs:
    rows: int
    block: int


@dataclass(frozen=True)
class _Result:
    padded: int

    status = "warning"

    @property
    def headline(self) -> str:
        return f"pads to {self.padded} rows"

    def rows(self) -> tuple[Row, ...]:
        return (Row("padded rows", str(self.padded), "ceil(rows / block) * block"), Row("waste | pipes", "1%"))


def _padding(inputs: _Inputs) -> _Result:
    if inputs.block > 512:
        raise CalculatorInputError("block", "must be at most 512")
    return _Result(-(-inputs.rows // inputs.block) * inputs.block)


_FAKE = Calculator(
    name="padding",
    title="Padding",
    summary="Rows after padding to whole blocks.",
    explainer="pallas#padding",
    inputs=_Inputs,
    fields=(Field("rows", "int", "Rows", "rows"), Field("block", "int", "Block", "block rows")),
    compute=_padding,
)


def _lookup(name: str) -> Calculator[Any, Any]:
    if name != "padding":
        raise KeyError(name)
    return _FAKE


def _diagnostic(calculator: tuple[str, Mapping[str, Any]] | None) -> Diagnostic:
    return Diagnostic(
        code="JX101",
        message="Python `if` on traced value `x`",
        path="a.py",
        range=Range(Position(4, 7), Position(4, 12)),
        url="https://docs.example.org/tracing#python-control-flow",
        related=(RelatedLocation("a.py", Range(Position(2, 0), Position(2, 8)), "`f` is traced here by `jax.jit`"),),
        calculator=calculator,
    )


def test_hover_shows_the_calculator_result_on_the_values_found() -> None:
    text = diagnostic_markdown(_diagnostic(("padding", {"rows": 1000, "block": 128})), "https://x.org", _lookup)
    assert "**Padding:** pads to 1024 rows" in text
    assert "| padded rows | 1024 | ceil(rows / block) * block |" in text
    assert "| waste \\| pipes | 1% |  |" in text
    assert "[Open the live calculator with these numbers](https://x.org/calc/padding?rows=1000&block=128)" in text
    assert "- `f` is traced here by `jax.jit` (line 2)" in text
    assert text.endswith(
        "[Explainer: how this works](https://docs.example.org/tracing#python-control-flow)"
        " · [Rule page](https://x.org/rules/JX101)"
    )


@pytest.mark.parametrize(
    "calculator",
    [("padding", {"rows": 1000, "block": 1024}), ("padding", {"rows": "many"}), ("teleport", {"x": 1})],
    ids=["rejected inputs", "unreadable inputs", "unknown calculator"],
)
def test_hover_without_a_usable_calculator_still_explains(calculator: tuple[str, Mapping[str, Any]]) -> None:
    text = diagnostic_markdown(_diagnostic(calculator), "https://x.org", _lookup)
    assert "Padding" not in text and "calc/" not in text
    assert "Python `if` on traced value `x`" in text


def test_calculator_markdown_with_a_registered_calculator_on_values_from_code() -> None:
    values = {"mesh": (("x", 4), ("y", 2)), "shape": (8, 6), "spec": ("x", None)}
    parts = calculator_markdown("shard-shape", values, "http://h")
    assert "per-device shard f32[2,6]" in parts[0]
    assert parts[-1] == (
        "[Open the live calculator with these numbers](http://h/calc/shard-shape?mesh=x:4,y:2&shape=8,6&spec=x,None)"
        " (14 more rows there)"
    )
    assert "| spec | P('x', None) |" in parts[-2] and "| devices available |" not in parts[-2]


def test_rule_markdown_for_noqa_codes() -> None:
    assert rule_markdown("JX601", "http://h").startswith("**JX601** · in-place-update-of-jax-array (stable)")
    assert rule_markdown("E999", "http://h") is None


# -- keeping the last good diagnostics ---------------------------------------------------------------


def _result(text: str) -> LintResult:
    diagnostics = tuple(check_source(text, "train.py"))
    return LintResult("file:///train.py", 1, 1, SourceText(text), None, diagnostics, (), "1")  # type: ignore[arg-type]


def test_last_good_diagnostics_are_kept_above_the_edit_and_the_error() -> None:
    good = _result(TRAIN)
    broken = TRAIN.replace("    return loss\n", "    return (loss\n")  # line 12
    kept = keep_last_good(check_source(broken, "train.py"), SourceText(broken), good)
    assert [(d.line, d.code) for d in kept] == [(9, "JX106"), (10, "JX101"), (12, "E999")]
    assert keep_last_good(check_source(TRAIN, "train.py"), SourceText(TRAIN), good) == check_source(TRAIN, "train.py")


def test_nothing_is_kept_when_the_first_lines_changed() -> None:
    good = _result(TRAIN)
    broken = "import jax (\n" + TRAIN
    kept = keep_last_good(check_source(broken, "train.py"), SourceText(broken), good)
    assert [d.code for d in kept] == ["E999"]
    assert dataclasses.replace(good, version=2).parses


def test_an_analyzer_failure_costs_the_diagnostics_not_the_server() -> None:
    def broken_check(text: str, path: str, settings: object) -> list[Diagnostic]:
        raise RuntimeError("rule bug")

    server = SimpleNamespace(position_encoding="utf-16", client_shows_related_information=True)
    linter = DocumentLinter(server, check=broken_check)  # type: ignore[arg-type]
    try:
        snapshot = DocumentSnapshot("file:///a.py", 3, TRAIN, "/a.py")
        result = linter._compute(snapshot, 1, Settings(), ClientSettings(), None)
    finally:
        linter.shutdown()
    assert result is not None and result.failed and result.diagnostics == () and not result.parses


def test_hover_shows_the_calculators_picture_as_an_image() -> None:
    import base64

    values = {"mesh": (("x", 2), ("y", 2)), "shape": (4, 6), "spec": ("x", None)}
    parts = calculator_markdown("shard-shape", values, "https://x.org")
    image = next(part for part in parts if part.startswith("!["))
    alt, _, uri = image[2:].partition("](data:image/svg+xml;base64,")
    assert "device 0 (0:2, 0:6)" in alt
    svg = base64.b64decode(uri.rstrip(")")).decode()
    assert svg.startswith("<svg ") and 'role="img"' in svg and "device 3" in svg
    assert parts.index(image) == 1  # right under the headline, before the table


def test_hover_messages_put_shapes_in_code_spans_for_every_fixture() -> None:
    import re

    from xlalens.server.hover import diagnostic_markdown

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "rules"
    bare = re.compile(r"(?<![\w`])[A-Za-z_][\w.]*\[[^\]\n`]*\]")
    shapes = 0
    for path in sorted(fixtures.glob("*.py")):
        for diagnostic in check_source(path.read_text(encoding="utf-8"), str(path)):
            message = diagnostic_markdown(diagnostic, "http://127.0.0.1:8711").split("\n\n")[1]
            outside = re.sub(r"`[^`]*`", "", message)
            assert not bare.search(outside), f"{diagnostic.code}: {message}"
            shapes += "f32[" in message
    assert shapes > 0, "no fixture message shows a shape: the check would prove nothing"
