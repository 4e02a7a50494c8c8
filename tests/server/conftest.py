"""Fixtures for the language-server tests: a real server process per test, once per editor profile."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .lsp_client import PROFILES, Session


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty project folder; its ``pyproject.toml`` stops the configuration search there."""
    root = tmp_path / "workspace"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n", encoding="utf-8")
    return root


@contextlib.asynccontextmanager
async def _started(profile: str, workspace: Path, tmp_path: Path) -> AsyncIterator[Session]:
    session = Session(profile, workspace, tmp_path / "server.log")
    await session.start()
    try:
        yield session
    finally:
        await session.stop()


@pytest_asyncio.fixture(params=PROFILES)
async def session(request: pytest.FixtureRequest, workspace: Path, tmp_path: Path) -> AsyncIterator[Session]:
    """A started (not yet initialized) server, with a client posing as VS Code or Neovim."""
    async with _started(request.param, workspace, tmp_path) as started:
        yield started


@pytest_asyncio.fixture
async def push_session(workspace: Path, tmp_path: Path) -> AsyncIterator[Session]:
    """A started server with a client posing as VS Code 1.65, which is pushed diagnostics."""
    async with _started("visual-studio-code", workspace, tmp_path) as started:
        yield started


@pytest_asyncio.fixture
async def pull_session(workspace: Path, tmp_path: Path) -> AsyncIterator[Session]:
    """A started server with a client posing as Neovim 0.11, which pulls diagnostics."""
    async with _started("neovim", workspace, tmp_path) as started:
        yield started
