"""Resolved settings for one check: which rules run and how findings are presented."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from xlalens.explainers.links import DEFAULT_BASE_URL, section_url

# Diagnostics link to the local explainer server (`xlalens explain --serve`) unless configured.
DEFAULT_EXPLAINER_BASE_URL = DEFAULT_BASE_URL


@dataclass(frozen=True)
class Settings:
    """Everything a check needs beyond the source text.

    Attributes:
        select: Rule selectors replacing the default selection (all stable rules); ``None`` keeps it.
        ignore: Rule selectors to turn off.
        extend_select: Rule selectors added to the selection.
        per_file_ignores: Glob pattern -> selectors ignored in matching files.
        exclude: Glob patterns of files and directories never checked (replaces the defaults).
        extend_exclude: Glob patterns excluded in addition to ``exclude``.
        preview: Run preview rules too.
        explainer_base_url: Where explainer pages are served; diagnostics link below it.
        tpu_generation: The TPU generation VMEM checks assume (e.g. ``"v5e"``).
        target: The accelerator the code is compiled for (``"tpu"`` or ``"gpu"``), when the code alone
            does not say; TPU-only checks (Pallas block shapes, VMEM) run for ``"tpu"``.
        device_count: The number of devices mesh checks assume.
        captured_constant_bytes: The size from which an array a jitted function closes over is reported
            (``JX804``): JAX embeds it in the compiled program.
        jax_version: The JAX release the checked code runs on (``"0.4.30"``), which decides whether an
            old spelling is an error (removed by then), a warning (deprecated) or fine (``JX7xx``);
            ``None``: the project's pin, else the newest release the rules know.
        torch_xla_version: The same for torch_xla (``"2.9"``), for the ``TX7xx`` rules.
        output_format: The ``check`` report format when ``--output-format`` is not given.
        unsafe_fixes: Whether ``check`` applies unsafe fixes when ``--unsafe-fixes`` is not given.
        fixable: Rule selectors whose findings carry their fix (for ``--fix``, fix-all and quick fixes);
            ``None``: all.
        unfixable: Rule selectors whose findings carry no fix (the findings stay).
        root: The directory the configuration was found in; patterns are relative to it.
        x64_in_package: Whether another module of the checked file's package names the
            ``jax_enable_x64`` switch (then whether x64 is on is decided at run time). Set by the
            project resolver from the files around the checked one; not a configuration key.
    """

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    preview: bool = False
    explainer_base_url: str = DEFAULT_EXPLAINER_BASE_URL
    tpu_generation: str | None = None
    target: str | None = None
    device_count: int | None = None
    captured_constant_bytes: int = 1 << 20
    jax_version: str | None = None
    torch_xla_version: str | None = None
    output_format: str | None = None
    unsafe_fixes: bool | None = None
    fixable: tuple[str, ...] | None = None
    unfixable: tuple[str, ...] = ()
    root: str | None = None
    x64_in_package: bool = False

    def explainer_url(self, explainer: str) -> str:
        """The URL of an explainer section given as ``page#section``.

        Examples:
            >>> Settings().explainer_url("tracing#python-control-flow")
            'http://127.0.0.1:8711/tracing#python-control-flow'
        """
        return section_url(self.explainer_base_url, explainer)
