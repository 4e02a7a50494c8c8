"""``xlalens explain`` and ``xlalens calc`` run as a user runs them: the real command in a subprocess."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request

import pytest
from xlalens.explainers.pages_catalog import load_pages

from tests.cli.conftest import Project


def test_explain_lists_topics_sections_and_calculators(project: Project) -> None:
    result = project.run("explain")
    assert result.returncode == 0, result.stderr
    for slug, page in load_pages().items():
        assert re.search(rf"^  {re.escape(slug)}\s+{re.escape(page.summary)}$", result.stdout, re.M)
    assert "python-control-flow" in result.stdout
    assert re.search(r"^  blockspec\s+\S", result.stdout, re.M)


def test_explain_topic_prints_the_page_with_its_related_rules(project: Project) -> None:
    result = project.run("explain", "tracing")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# Tracing")
    assert "## Related rules" in result.stdout and "**JX101**" in result.stdout
    assert "raises=" not in result.stdout  # example-runner marks are not shown to readers


@pytest.mark.parametrize("arguments", [("tracing", "printing"), ("tracing#printing",), ("tracing", "Printing")])
def test_explain_section_prints_only_that_section(project: Project, arguments: tuple[str, ...]) -> None:
    result = project.run("explain", *arguments)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("## Printing")
    assert "## Tracer leaks" not in result.stdout and "## Python control flow" not in result.stdout


def test_unknown_topic_or_section_is_a_usage_error_listing_the_choices(project: Project) -> None:
    topic = project.run("explain", "tracin")
    assert topic.returncode == 2
    assert "unknown topic 'tracin'" in topic.stderr and "tracing" in topic.stderr
    section = project.run("explain", "tracing", "nope")
    assert section.returncode == 2
    assert "no section 'nope'" in section.stderr and "python-control-flow" in section.stderr


def test_calc_prints_the_numbers_as_a_table(project: Project) -> None:
    result = project.run(
        "calc", "blockspec", "--array", "1000,512", "--block", "192,128", "--dtype", "float32", "--tpu", "v5e"
    )
    assert result.returncode == 0, result.stderr
    assert "(6, 4)" in result.stdout  # grid = (cdiv(1000, 192), cdiv(512, 128))
    assert "152" in result.stdout  # padded rows on the last row-block: 6 * 192 - 1000


def test_calc_json_has_inputs_status_rows_and_values(project: Project) -> None:
    result = project.run("calc", "shard-shape", "--mesh", "x:4,y:2", "--shape=8,6", "--spec", "x,None", "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["calculator"] == "shard-shape"
    assert payload["inputs"] == {"mesh": "x:4,y:2", "shape": "8,6", "spec": "x,None"}
    assert payload["status"] == "ok" and payload["rows"]
    assert "(2, 6)" in json.dumps(payload) or "[2, 6]" in json.dumps(payload)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("blockspec", "--array", "abc"), "array:"),
        (("blockspec", "--colour", "red"), "colour: unknown field"),
        (("blockspec", "--array"), "--array needs a value"),
        (("blockspec", "stray"), "expected --FIELD VALUE"),
        (("teleport",), "unknown calculator 'teleport'"),
    ],
)
def test_calc_bad_input_is_a_usage_error_naming_the_field(
    project: Project, arguments: tuple[str, ...], message: str
) -> None:
    result = project.run("calc", *arguments)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_calc_help_lists_fields_and_an_example(project: Project) -> None:
    result = project.run("calc", "roofline", "--help")
    assert result.returncode == 0, result.stderr
    assert "--chip" in result.stdout and "Example: xlalens calc roofline" in result.stdout
    listing = project.run("calc")
    assert listing.returncode == 0 and "shard-shape" in listing.stdout


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_calc_help_without_a_name_lists_the_calculators(project: Project, flag: str) -> None:
    result = project.run("calc", flag)
    assert result.returncode == 0, result.stderr
    assert "unrecognized arguments" not in result.stderr
    assert re.search(r"^  roofline\s+\S", result.stdout, re.M)


def test_explain_serve_binds_loopback_and_serves_pages(project: Project) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "xlalens.analyzers.cli.main", "explain", "--serve", "--port", "0", "tracing#printing"],
        cwd=project.root,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        match = re.search(r"at (http://127\.0\.0\.1:(\d+))/tracing#printing ", line)
        assert match, line
        deadline = time.monotonic() + 10
        while True:
            try:
                with urllib.request.urlopen(match.group(1) + "/tracing", timeout=5) as response:
                    body = response.read().decode()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert 'id="printing"' in body
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_explain_serve_on_a_taken_port_says_so(project: Project) -> None:
    from xlalens.explainers.web import ExplainerServer

    taken = ExplainerServer(0)
    try:
        result = project.run("explain", "--serve", "--port", str(taken.port))
    finally:
        taken.close()
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{taken.port}" in result.stderr and "--port 0" in result.stderr


def test_calc_refuses_an_index_map_nested_too_deeply(capsys):
    from xlalens.analyzers.cli.main import main

    index_map = "lambda i: (" + "-" * 900 + "i,)"
    assert main(["calc", "blockspec", "--array", "1000", "--block", "128", "--index-map", index_map]) == 2
    err = capsys.readouterr().err
    assert "levels deep" in err and "Traceback" not in err
