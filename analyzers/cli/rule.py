"""``xlalens rule CODE`` / ``xlalens rule --all``: a rule's documentation, as text or JSON."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path

from xlalens.analyzers.cli.common import EXIT_CLEAN, UsageError
from xlalens.analyzers.core.codes import NON_RULE_CODES, NonRuleCode
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.engine import registry
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.project.config import ConfigError, SettingsResolver
from xlalens.explainers.links import rule_url


def add_rule(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("rule", help="Explain a rule.", description="Print a rule's documentation.")
    parser.set_defaults(handler=_run_rule)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("code", nargs="?", metavar="CODE", help="A rule code such as JX101.")
    which.add_argument("--all", action="store_true", help="Every rule.")
    parser.add_argument("--output-format", choices=("text", "json"), default="text")


_AVAILABILITY = {
    FixAvailability.NONE: "Fix is not available.",
    FixAvailability.SOMETIMES: "Fix is sometimes available.",
    FixAvailability.ALWAYS: "Fix is always available.",
}


@functools.cache
def _explainer_settings() -> Settings:
    # The configured explainer-base-url, if the configuration loads; `rule` never fails over it.
    try:
        return SettingsResolver().for_directory(Path.cwd())
    except ConfigError:
        return Settings()


def _rule_url(rule: type[Rule]) -> str:
    return _explainer_settings().explainer_url(rule.explainer)


def _rule_page_url(rule: type[Rule]) -> str:
    return rule_url(_explainer_settings().explainer_base_url, rule.code)


def rule_markdown(rule: type[Rule]) -> str:
    """The text ``xlalens rule`` prints: a header (code, name, status, fix, link) and the docs."""
    # One paragraph per item, so the header reads the same as plain text and as rendered Markdown.
    header = [
        f"# {rule.name()} ({rule.code})",
        f"Status: {rule.status.value}. {_AVAILABILITY[rule.fix_availability]}",
    ]
    if rule.fix_title:
        header.append(f"Fix: {rule.fix_title}")
    header.append(f"Explainer: <{_rule_url(rule)}>")
    header.append(f"Rule page: <{_rule_page_url(rule)}>")
    if rule.raises:
        header.append(expected_errors_note(rule))
    return "\n\n".join([*header, rule.docs()]) + "\n"


def expected_errors_note(rule: type[Rule]) -> str:
    """The shared paragraph on code that provokes the rule's error on purpose."""
    names = ", ".join(f"`{name}`" for name in rule.raises)
    return (
        f"Raises: {names}. Not reported where the code expects that error: inside `with pytest.raises(...)`, "
        "`self.assertRaises*(...)`, `self.assertWarns*(...)` or NumPy's `assert_raises(...)` naming it or a "
        "base of it, inside a `try` whose `except` names it or a base of it (`except Exception:` and a bare "
        "`except:` do not count: they would hide a real bug), and in a function every call of which sits there."
    )


def rule_object(rule: type[Rule]) -> dict[str, object]:
    """The JSON description of a rule (``xlalens rule --output-format json``)."""
    return {
        "code": rule.code,
        "name": rule.name(),
        "summary": rule.summary(),
        "message": getattr(rule, "message", None),
        "status": rule.status.value,
        "preview": rule.status.value == "preview",
        "severity": rule.severity.value,
        "fix": _AVAILABILITY[rule.fix_availability],
        "fix_availability": rule.fix_availability.value,
        "fix_title": rule.fix_title,
        "explainer": _rule_url(rule),
        "page": _rule_page_url(rule),
        "explanation": rule.docs(),
        "raises": list(rule.raises),
    }


def non_rule_markdown(entry: NonRuleCode) -> str:
    """What ``xlalens rule`` prints for a code that no rule owns (``E999``, ``LX301``)."""
    noqa = "It describes the whole file: no `# noqa` comment silences it." if entry.file_level else ""
    return (
        "\n\n".join(
            part
            for part in (
                f"# {entry.name} ({entry.code})",
                f"Not a rule: xlalens reports it {'for a file' if entry.file_level else 'from a log'}. "
                f'Select or ignore it like a rule (`--ignore {entry.code}`, `ignore = ["{entry.code}"]`).',
                entry.description,
                noqa,
            )
            if part
        )
        + "\n"
    )


def non_rule_object(entry: NonRuleCode) -> dict[str, object]:
    """The JSON description of a code that no rule owns."""
    return {
        "code": entry.code,
        "name": entry.name,
        "rule": False,
        "file_level": entry.file_level,
        "explanation": entry.description,
    }


def _run_rule(args: argparse.Namespace) -> int:
    entry = None if args.all else NON_RULE_CODES.get(args.code.strip().upper())
    if entry is not None:
        if args.output_format == "json":
            print(json.dumps(non_rule_object(entry), indent=2, ensure_ascii=False))
        else:
            sys.stdout.write(non_rule_markdown(entry))
        return EXIT_CLEAN
    if args.all:
        rules = registry.all_rules()
    else:
        try:
            rules = [registry.get_rule(args.code)]
        except KeyError as error:
            known = ", ".join(sorted(NON_RULE_CODES))
            raise UsageError(f"{error.args[0]}; codes that are not rules: {known}") from None
    if args.output_format == "json":
        data: object = [rule_object(r) for r in rules] if args.all else rule_object(rules[0])
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return EXIT_CLEAN
    text = "\n".join(rule_markdown(rule) for rule in rules)
    if sys.stdout.isatty():
        from rich.console import Console  # only on a terminal: rich is slow to import
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        sys.stdout.write(text)
    return EXIT_CLEAN
