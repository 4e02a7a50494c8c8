"""The rule pages and the pages and calculators of the catalogue topics, in real Chromium.

Each calculator panel is opened on its page, an input is changed in the form, and the recomputed
result is compared with what real JAX says for the same inputs (computed once per module in a
subprocess, as the calculator oracles do).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from xlalens.analyzers.engine import registry
from xlalens.explainers.calculators import get_calculator
from xlalens.explainers.links import rule_url
from xlalens.explainers.pages_catalog import load_pages

TIMEOUT_MS = 10_000
NEW_PAGES = (
    "performance-model",
    "pytrees",
    "vmap",
    "transforms",
    "remat",
    "spmd-partitioner",
    "pallas-pipeline",
    "pallas-gpu",
    "compile-cache",
    "torch-xla-runtime",
)

_JAX = r"""
import json, re
import jax
import jax.numpy as jnp
from jax import tree_util
from jax._src.ad_checkpoint import saved_residuals
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

answers = {}
tree = {"w": jnp.zeros((3, 2)), "b": None, "opt": (jnp.zeros((), jnp.int32), [jnp.zeros((3, 2)), jnp.zeros(2)])}
answers["treedef"] = str(tree_util.tree_structure(tree))
batched = jax.vmap(lambda x, y: x.sum(-1) + y.sum(), in_axes=(1, None))
answers["vmap"] = list(batched(jnp.ones((3, 16)), jnp.ones(3)).shape)
try:
    jax.vmap(lambda x, y: x, in_axes=(0, 0))(jnp.ones((8, 3)), jnp.ones(4))
except ValueError as error:
    answers["vmap_error"] = str(error).splitlines()[0]
a, b = jnp.ones((512, 256), jnp.float32), jnp.ones((256, 1024), jnp.float32)
answers["flops"] = jax.jit(jnp.matmul).lower(a, b).compile().cost_analysis()["flops"]

def layer(w, x):
    return jnp.tanh(x @ w)

def loss(ws, x):
    for w in ws:
        x = jax.checkpoint(layer, policy=jax.checkpoint_policies.dots_saveable)(w, x)
    return x.sum()

kept = [a for a, where in saved_residuals(loss, [jnp.ones((16, 16))] * 6, jnp.ones((8, 16))) if "argument" not in where]
answers["remat_bytes"] = sum(a.size * a.dtype.itemsize for a in kept)
mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
x = jax.device_put(jnp.zeros((1024, 1024)), NamedSharding(mesh, P("x", "y")))
hlo = jax.jit(lambda a: a, out_shardings=NamedSharding(mesh, P(None, "y"))).lower(x).compile().as_text()
answers["reshard"] = sorted(set(re.findall(r"\b(all-gather|all-to-all|collective-permute)\(", hlo)))
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def jax_says() -> Iterator[dict[str, Any]]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("JAX_", "XLA_"))}
    env.update(JAX_PLATFORMS="cpu", XLA_FLAGS="--xla_force_host_platform_device_count=8")
    proc = subprocess.run([sys.executable, "-c", _JAX], capture_output=True, text=True, env=env, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    yield json.loads(proc.stdout.strip().splitlines()[-1])


def _panel(page: Page, base_url: str, slug: str, name: str) -> Any:
    page.goto(f"{base_url}/{slug}")
    panel = page.locator(f"section.calculator[data-calculator={name}]")
    expect(panel.locator(".result .headline")).to_be_visible(timeout=TIMEOUT_MS)
    return panel


@pytest.mark.parametrize("slug", NEW_PAGES)
def test_each_new_page_opens_from_the_index_with_its_sections(page: Page, base_url: str, slug: str) -> None:
    page.goto(base_url)
    page.locator(f"ul.pages a[href='/{slug}']").click()
    expect(page.locator("h1")).to_have_text(load_pages()[slug].title, timeout=TIMEOUT_MS)
    expect(page.locator("h2#sources")).to_be_visible()
    assert page.locator("pre").count() >= 1


def test_a_rule_page_opens_from_the_code_link_and_leads_to_its_section(page: Page, base_url: str) -> None:
    rule = registry.get_rule("JX101")
    page.goto(rule_url(base_url, rule.code))
    expect(page.locator("h1")).to_have_text(f"JX101 · {rule.name()}", timeout=TIMEOUT_MS)
    expect(page.locator("h2#what-it-does")).to_be_visible()
    page.locator("ul.rule-facts a").click()
    expect(page.locator("h2#python-control-flow")).to_be_in_viewport(timeout=TIMEOUT_MS)


def test_the_rule_index_lists_every_rule_by_family(page: Page, base_url: str) -> None:
    page.goto(rule_url(base_url))
    expect(page.locator("h2").first).to_contain_text("JX1xx", timeout=TIMEOUT_MS)
    assert page.locator("ul.rules li").count() == len(registry.all_rules())
    page.locator("a[href='/rules/TX201']").click()
    expect(page.locator("h1")).to_contain_text("TX201", timeout=TIMEOUT_MS)


def test_pytree_panel_follows_edits_and_matches_tree_util(page: Page, base_url: str, jax_says: dict[str, Any]) -> None:
    panel = _panel(page, base_url, "pytrees", "pytree")
    panel.locator("textarea[name=tree], input[name=tree]").fill(
        "{'w': f32[3,2], 'b': None, 'opt': (i32[], [f32[3,2], f32[2]])}"
    )
    expect(panel.locator(".result .headline")).to_contain_text(jax_says["treedef"], timeout=TIMEOUT_MS)
    panel.locator("input[name=other], textarea[name=other]").fill("{'w': f32[3,2], 'b': f32[2]}")
    expect(panel.locator(".result .headline")).to_have_attribute("data-status", "warning", timeout=TIMEOUT_MS)


def test_vmap_panel_follows_edits_and_matches_jax(page: Page, base_url: str, jax_says: dict[str, Any]) -> None:
    panel = _panel(page, base_url, "vmap", "vmap-axes")
    panel.locator("[name=args]").fill("x: f32[3,16]; y: f32[3]")
    panel.locator("[name=in-axes]").fill("(1, None)")
    shape = ",".join(map(str, jax_says["vmap"]))
    expect(panel.locator(".result .headline")).to_contain_text(f"vmap returns f32[{shape}]", timeout=TIMEOUT_MS)
    panel.locator("[name=args]").fill("x: f32[8,3]; y: f32[4]")
    panel.locator("[name=in-axes]").fill("(0, 0)")
    expect(panel.locator(".result .headline")).to_contain_text(jax_says["vmap_error"], timeout=TIMEOUT_MS)


def test_roofline_panel_counts_the_flops_xla_counts(page: Page, base_url: str, jax_says: dict[str, Any]) -> None:
    panel = _panel(page, base_url, "performance-model", "roofline")
    panel.locator("[name=m]").fill("512")
    panel.locator("[name=k]").fill("256")
    panel.locator("[name=n]").fill("1024")
    panel.locator("[name=dtype]").select_option("f32")  # XLA on CPU counts bf16 converts as FLOPs too
    expect(panel.locator(".result table")).to_contain_text(f"{int(jax_says['flops']):,}", timeout=TIMEOUT_MS)


def test_remat_panel_matches_saved_residuals(page: Page, base_url: str, jax_says: dict[str, Any]) -> None:
    panel = _panel(page, base_url, "remat", "remat")
    for name, value in (("layers", "6"), ("batch", "8"), ("width", "16")):
        panel.locator(f"[name={name}]").fill(value)
    panel.locator("[name=layer]").select_option("tanh-dense")
    panel.locator("[name=dtype]").select_option("f32")
    panel.locator("[name=policy]").select_option("dots_saveable")
    expect(panel.locator(".result table")).to_contain_text(f"{jax_says['remat_bytes']:,} B", timeout=TIMEOUT_MS)


def test_reshard_panel_names_the_collective_xla_emits(page: Page, base_url: str, jax_says: dict[str, Any]) -> None:
    panel = _panel(page, base_url, "spmd-partitioner", "reshard")
    panel.locator("[name=source]").fill("x,y")
    panel.locator("[name=target]").fill("None,y")
    assert jax_says["reshard"] == ["all-gather"]
    expect(panel.locator(".result .headline")).to_contain_text("all-gather over x", timeout=TIMEOUT_MS)


def test_pipeline_panel_follows_edits(page: Page, base_url: str) -> None:
    panel = _panel(page, base_url, "pallas-pipeline", "pipeline")
    panel.locator("[name=grid]").fill("2,3,2")
    panel.locator("[name=inputs]").fill("x: lambda i, k, j: (i, k); y: lambda i, k, j: (k, j)")
    panel.locator("[name=outputs]").fill("o: lambda i, k, j: (i, j)")
    expect(panel.locator(".result .headline")).to_contain_text("x 6, y 12; write-backs: o 12", timeout=TIMEOUT_MS)


@pytest.mark.parametrize("width", [1280, 390])
def test_the_mesh_picture_is_redrawn_as_the_spec_changes_and_fits_the_screen(
    browser: Browser, base_url: str, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{base_url}/sharding?mesh=x:4,y:2&shape=8,6&spec=x,None")
        panel = page.locator("section.calculator[data-calculator=shard-shape]")
        picture = panel.locator("figure.exhibit svg[role=img]")
        expect(picture.locator("desc")).to_contain_text("device 1 [0:2, 0:6]", timeout=TIMEOUT_MS)
        panel.locator("input[name=spec]").fill("x,y")
        expect(picture.locator("desc")).to_contain_text("device 1 [0:2, 3:6]", timeout=TIMEOUT_MS)
        assert picture.locator("rect").count() == 8
        box = picture.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


def test_the_pipeline_timeline_follows_the_grid(page: Page, base_url: str) -> None:
    panel = _panel(page, base_url, "pallas-pipeline", "pipeline")
    panel.locator("[name=grid]").fill("1,1,4")
    expect(panel.locator("figure.exhibit svg desc")).to_contain_text("Timeline of 4 grid steps", timeout=TIMEOUT_MS)
    expect(panel.locator("figure.exhibit svg desc")).to_contain_text("Step 3 (0, 0, 3)")


def test_transform_stack_panel_follows_edits_and_shows_the_python_result(page: Page, base_url: str) -> None:
    """Typed stacks give the calculator's Python headline; tests/explainers/calculators/test_transform_stack.py
    checks these same cases (grad, vmap and vmap, grad on w: 3, x: 3, a scalar f) against JAX."""
    panel = _panel(page, base_url, "transforms", "transform-stack")
    for stack in ("grad, vmap", "vmap, grad"):
        panel.locator("[name=stack]").fill(stack)
        query = {"stack": stack, "w": "3", "x": "3", "out": "", "batch": "8", "in-axes": "(None, 0)"}
        headline = get_calculator("transform-stack").run(query).headline
        expect(panel.locator(".result .headline")).to_contain_text(headline, timeout=TIMEOUT_MS)
