"""URLs of explainer sections and of prefilled calculators: the one place links are built.

The CLI's ``url`` field, the language server's ``codeDescription.href`` and hover links, and the
pages served by ``xlalens explain --serve`` all use these, so a link always opens what it names.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote, urlencode

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8711
DEFAULT_BASE_URL = f"http://{DEFAULT_HOST}:{DEFAULT_PORT}"
CALCULATOR_PREFIX = "calc"
RULES_PREFIX = "rules"


def section_url(base_url: str, explainer: str) -> str:
    """The URL of an explainer page or section given as ``page`` or ``page#section``.

    Examples:
        >>> section_url("http://127.0.0.1:8711/", "tracing#python-control-flow")
        'http://127.0.0.1:8711/tracing#python-control-flow'
        >>> section_url("https://docs.example.org/xlalens", "jit-caching")
        'https://docs.example.org/xlalens/jit-caching'
    """
    page, _, section = explainer.partition("#")
    url = f"{base_url.rstrip('/')}/{quote(page)}"
    return f"{url}#{quote(section)}" if section else url


def calculator_url(base_url: str, name: str, query: Mapping[str, str] | None = None) -> str:
    """The URL of a live calculator prefilled with ``query`` (field name -> text).

    Examples:
        >>> calculator_url("http://127.0.0.1:8711", "blockspec", {"array": "1000,512", "block": "128,128"})
        'http://127.0.0.1:8711/calc/blockspec?array=1000,512&block=128,128'
        >>> calculator_url("http://127.0.0.1:8711", "retrace")
        'http://127.0.0.1:8711/calc/retrace'
    """
    url = f"{base_url.rstrip('/')}/{CALCULATOR_PREFIX}/{quote(name)}"
    if query:
        url += "?" + urlencode(dict(query), safe=",()[]:~")
    return url


def rule_url(base_url: str, code: str = "") -> str:
    """The URL of a rule's page (its documentation), or of the index of every rule without a code.

    Examples:
        >>> rule_url("http://127.0.0.1:8711/", "JX101")
        'http://127.0.0.1:8711/rules/JX101'
        >>> rule_url("http://127.0.0.1:8711")
        'http://127.0.0.1:8711/rules'
    """
    url = f"{base_url.rstrip('/')}/{RULES_PREFIX}"
    return f"{url}/{quote(code)}" if code else url
