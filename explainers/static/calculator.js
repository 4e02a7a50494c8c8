// Live calculator panels: recompute through /api/calc/<name> as fields change.
// Values typed by the user are only ever written with textContent.
"use strict";

(function () {
  const DELAY_MS = 150;

  function fieldValues(form) {
    const params = new URLSearchParams();
    for (const control of form.querySelectorAll("input, select, textarea")) {
      if (control.value !== "") params.set(control.name, control.value);
    }
    return params;
  }

  function clearErrors(panel) {
    for (const output of panel.querySelectorAll(".field .error")) output.textContent = "";
    for (const control of panel.querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
  }

  function showError(panel, field, message) {
    const box = panel.querySelector(`.field[data-field="${CSS.escape(field)}"]`);
    if (!box) {
      const headline = document.createElement("p");
      headline.className = "headline status-error";
      headline.textContent = `${field}: ${message}`;
      panel.querySelector(".result").replaceChildren(headline);
      return;
    }
    box.querySelector(".error").textContent = message;
    box.querySelector("input, select, textarea").setAttribute("aria-invalid", "true");
  }

  function renderResult(panel, result) {
    const headline = document.createElement("p");
    headline.className = `headline status-${result.status}`;
    headline.dataset.status = result.status;
    headline.textContent = result.headline;
    const table = document.createElement("table");
    table.className = "rows";
    const body = table.createTBody();
    for (const row of result.rows) {
      const tr = body.insertRow();
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = row.label;
      tr.appendChild(th);
      tr.insertCell().textContent = row.value;
      const formula = tr.insertCell();
      formula.className = "formula";
      formula.textContent = row.formula;
    }
    const parts = [headline];
    if (result.picture) parts.push(renderPicture(result.picture));
    panel.querySelector(".result").replaceChildren(...parts, table);
  }

  // The server draws the picture from numbers and escapes every piece of input text in it; it is
  // parsed as XML (scripts in parsed documents never run, and the page's policy allows none inline).
  function renderPicture(picture) {
    const figure = document.createElement("figure");
    figure.className = "exhibit";
    const parsed = new DOMParser().parseFromString(picture.svg, "image/svg+xml");
    if (parsed.documentElement.nodeName === "svg") figure.appendChild(document.importNode(parsed.documentElement, true));
    return figure;
  }

  async function recompute(panel) {
    const name = panel.dataset.calculator;
    const params = fieldValues(panel.querySelector("form"));
    const query = params.toString();
    const response = await fetch(`/api/calc/${encodeURIComponent(name)}?${query}`);
    const payload = await response.json();
    clearErrors(panel);
    if (response.ok) {
      renderResult(panel, payload.result);
    } else {
      panel.querySelector(".result").replaceChildren();
      showError(panel, payload.field || name, payload.message || "invalid input");
    }
    panel.querySelector(".permalink a").href = `/calc/${encodeURIComponent(name)}?${query}`;
    panel.dataset.state = response.ok ? "ok" : "invalid";
  }

  // A static copy of the site (xlalens explain --export) has no API: say where the live calculator runs.
  const STATIC_COPY = document.documentElement.dataset.xlalensStatic === "true";

  function staticNotice(panel) {
    panel.querySelector(".result").replaceChildren();
    showError(
      panel,
      panel.dataset.calculator,
      "This copy of the site is static: run `xlalens explain --serve` (or `xlalens calc " +
        panel.dataset.calculator + "`) to compute these numbers.",
    );
    panel.dataset.state = "static";
  }

  for (const panel of document.querySelectorAll("section.calculator")) {
    let timer = null;
    const schedule = () => {
      if (STATIC_COPY) return staticNotice(panel);
      panel.dataset.state = "pending";
      clearTimeout(timer);
      timer = setTimeout(() => recompute(panel).catch((error) => showError(panel, panel.dataset.calculator, String(error))), DELAY_MS);
    };
    panel.querySelector("form").addEventListener("input", schedule);
    panel.querySelector("form").addEventListener("change", schedule);
    panel.querySelector("form").addEventListener("submit", (event) => { event.preventDefault(); schedule(); });
    panel.dataset.state = "ready";
  }
})();
