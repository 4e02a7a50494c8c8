// Live calculator panels: recompute as fields change, through /api/calc/<name> on the local server,
// or, on a static copy of the site (xlalens explain --export), in the browser: Pyodide runs the
// calculators' own Python modules (static/py/xlalens-calculators.zip) and gives the same JSON.
// Values typed by the user are only ever written with textContent, and reach Python as one JSON
// string argument of a function call: never as code.
"use strict";

(function () {
  const DELAY_MS = 150;
  // A static copy of the site is marked on <html>, which also names where Pyodide is loaded from.
  const STATIC_COPY = document.documentElement.dataset.xlalensStatic === "true";
  const PYODIDE_URL = document.documentElement.dataset.xlalensPyodide;
  // The archive lies next to this script; document.currentScript is only set while it first runs.
  const ARCHIVE_URL = new URL("py/xlalens-calculators.zip", document.currentScript.src).href;
  const PYTHON_DIR = "/xlalens-calculators";

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

  function showResponse(panel, status, payload) {
    clearErrors(panel);
    if (status === 200) {
      renderResult(panel, payload.result);
    } else {
      panel.querySelector(".result").replaceChildren();
      showError(panel, payload.field || panel.dataset.calculator, payload.message || "invalid input");
    }
    panel.dataset.state = status === 200 ? "ok" : "invalid";
  }

  async function recompute(panel) {
    const name = panel.dataset.calculator;
    const params = fieldValues(panel.querySelector("form"));
    const query = params.toString();
    const response = await fetch(`/api/calc/${encodeURIComponent(name)}?${query}`);
    showResponse(panel, response.status, await response.json());
    panel.querySelector(".permalink a").href = `/calc/${encodeURIComponent(name)}?${query}`;
  }

  // The static copy's calculator: Pyodide started once per page, the archive unpacked into its file
  // system, and calc_api.answer_json (the function behind /api/calc on the server) handed back.
  let engine = null;

  function loadEngine() {
    engine ??= (async () => {
      if (!PYODIDE_URL) throw new Error("this copy does not say where Pyodide is");
      const indexURL = new URL(PYODIDE_URL, document.baseURI).href;
      const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
      const [pyodide, archive] = await Promise.all([loadPyodide({ indexURL }), fetchArchive()]);
      pyodide.unpackArchive(archive, "zip", { extractDir: PYTHON_DIR });
      pyodide.pyimport("sys").path.insert(0, PYTHON_DIR);
      return pyodide.pyimport("xlalens.explainers.calc_api").answer_json;
    })();
    return engine;
  }

  async function fetchArchive() {
    const response = await fetch(ARCHIVE_URL);
    if (!response.ok) throw new Error(`${ARCHIVE_URL} answered ${response.status}`);
    return response.arrayBuffer();
  }

  async function recomputeInBrowser(panel) {
    let answerJson;
    try {
      answerJson = await loadEngine();
    } catch {
      return; // startEngine has said, in the panel, that the example's result is all there is
    }
    // The values are read after the engine is ready, so edits made while it loaded are all counted.
    const query = Object.fromEntries(fieldValues(panel.querySelector("form")));
    const answer = JSON.parse(answerJson(panel.dataset.calculator, JSON.stringify(query)));
    showResponse(panel, answer.status, answer.body);
    // A static host cannot open a link with other numbers (it serves the example's page), so the
    // link is hidden once the numbers are the reader's own.
    panel.querySelector(".permalink").hidden = true;
  }

  function engineNote(panel) {
    let note = panel.querySelector(".engine-note");
    if (!note) {
      note = document.createElement("p");
      note.className = "engine-note";
      note.setAttribute("role", "status");
      panel.querySelector(".result").before(note);
    }
    return note;
  }

  // Until Pyodide is ready the panel keeps the example's result, rendered into the page, and says
  // so; when it cannot load (offline, blocked) the example stays and the note says where to compute.
  function startEngine(panels) {
    for (const panel of panels) {
      engineNote(panel).textContent = "Loading the calculator… (the result shown is the example's)";
      panel.dataset.engine = "loading";
    }
    loadEngine().then(
      () => {
        for (const panel of panels) {
          engineNote(panel).remove();
          panel.dataset.engine = "ready";
        }
      },
      (error) => {
        console.warn("xlalens: Pyodide did not load:", error);
        for (const panel of panels) {
          engineNote(panel).textContent =
            "This calculator could not load Python in the browser (Pyodide, from " + PYODIDE_URL + "; offline?), " +
            "so the result shown is the example's. Run `xlalens explain --serve` (or `xlalens calc " +
            panel.dataset.calculator + "`) to compute your own numbers.";
          panel.dataset.engine = "offline";
          panel.dataset.state = "offline";
        }
      },
    );
  }

  const panels = [...document.querySelectorAll("section.calculator")];
  for (const panel of panels) {
    let timer = null;
    const compute = STATIC_COPY ? recomputeInBrowser : recompute;
    const schedule = () => {
      if (panel.dataset.engine === "offline") return;
      panel.dataset.state = "pending";
      clearTimeout(timer);
      timer = setTimeout(() => compute(panel).catch((error) => showError(panel, panel.dataset.calculator, String(error))), DELAY_MS);
    };
    panel.querySelector("form").addEventListener("input", schedule);
    panel.querySelector("form").addEventListener("change", schedule);
    panel.querySelector("form").addEventListener("submit", (event) => { event.preventDefault(); schedule(); });
    panel.dataset.state = "ready";
  }
  // A link with the reader's numbers (a diagnostic's calculator link) reaches a static copy with its
  // query string, which the host ignores: the numbers go into the calculator page's form here, and
  // are computed as soon as Python is ready.
  function applyQuery(panel) {
    const params = new URLSearchParams(window.location.search);
    let applied = false;
    for (const control of panel.querySelectorAll("input, select, textarea")) {
      if (params.has(control.name)) {
        control.value = params.get(control.name);
        applied = true;
      }
    }
    if (applied) panel.querySelector("form").dispatchEvent(new Event("change"));
  }
  if (STATIC_COPY && panels.length) {
    startEngine(panels);
    if (panels.length === 1) applyQuery(panels[0]);
  }
})();
