-- Drive the xlalens language server from a real Neovim (0.11+): open a file, wait for the
-- diagnostics, ask for hover, code actions and inlay hints, apply the preferred quick fix and
-- write the buffer. Results go to $XLALENS_OUT as JSON; the pytest wrapper checks them.
-- Run: XLALENS_PY=python XLALENS_FILE=train.py XLALENS_OUT=out.json nvim --clean --headless -l e2e.lua

local python = assert(os.getenv("XLALENS_PY"), "XLALENS_PY is not set")
local file = assert(os.getenv("XLALENS_FILE"), "XLALENS_FILE is not set")
local out = assert(os.getenv("XLALENS_OUT"), "XLALENS_OUT is not set")
local TIMEOUT_MS = 20000
local results = { steps = {} }

local function step(name)
  table.insert(results.steps, name)
end

local function wait_for(what, condition)
  if not vim.wait(TIMEOUT_MS, condition, 20) then
    error("timed out waiting for " .. what)
  end
end

local function lsp_diagnostics(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(found, { line = d.lnum + 1, code = d.code, source = d.source, namespace = d.namespace })
  end
  table.sort(found, function(a, b) return a.line < b.line end)
  return found
end

local function has_code(buf, code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == code then
      return true
    end
  end
  return false
end

local function request(client, method, params, buf)
  local response, err = client:request_sync(method, params, TIMEOUT_MS, buf)
  if err then
    error(method .. ": " .. tostring(err))
  end
  if response.err then
    error(method .. ": " .. vim.inspect(response.err))
  end
  return response.result
end

local function run()
  vim.lsp.config("xlalens", {
    cmd = { python, "-m", "xlalens.server" },
    filetypes = { "python" },
    root_markers = { "pyproject.toml" },
    settings = { xlalens = { debounceMs = 10 } },
  })
  vim.lsp.enable("xlalens")
  vim.cmd.edit(file)
  local buf = vim.api.nvim_get_current_buf()

  wait_for("the client to attach", function()
    return #vim.lsp.get_clients({ bufnr = buf, name = "xlalens" }) > 0
  end)
  local client = vim.lsp.get_clients({ bufnr = buf, name = "xlalens" })[1]
  wait_for("the client to initialize", function()
    return client.initialized
  end)
  results.offset_encoding = client.offset_encoding
  step("attached")

  wait_for("diagnostics", function()
    return #vim.diagnostic.get(buf) >= 4
  end)
  results.diagnostics = lsp_diagnostics(buf)
  step("diagnostics")

  vim.api.nvim_win_set_cursor(0, { 10, 8 }) -- on `loss > 10.0`
  local hover = request(client, "textDocument/hover", vim.lsp.util.make_position_params(0, client.offset_encoding), buf)
  results.hover = hover and hover.contents.value or vim.NIL
  step("hover")

  vim.api.nvim_win_set_cursor(0, { 9, 6 }) -- on `print("loss:", loss)`
  local params = vim.lsp.util.make_range_params(0, client.offset_encoding)
  params.context = {
    diagnostics = vim.tbl_map(function(d)
      return d.user_data.lsp
    end, vim.diagnostic.get(buf, { lnum = 8 })),
  }
  local actions = request(client, "textDocument/codeAction", params, buf)
  results.code_actions = {}
  local preferred = nil
  for _, action in ipairs(actions) do
    table.insert(results.code_actions, { title = action.title, kind = action.kind, preferred = action.isPreferred or false })
    if action.isPreferred and preferred == nil then
      preferred = action
    end
  end
  step("code actions")

  local hints = request(client, "textDocument/inlayHint", {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    range = { start = { line = 0, character = 0 }, ["end"] = { line = vim.api.nvim_buf_line_count(buf), character = 0 } },
  }, buf)
  results.inlay_hints = {}
  for _, hint in ipairs(hints or {}) do
    table.insert(results.inlay_hints, { line = hint.position.line + 1, label = hint.label })
  end
  step("inlay hints")

  assert(preferred, "no preferred quick fix")
  if preferred.edit == nil then
    preferred = request(client, "codeAction/resolve", preferred, buf)
  end
  vim.lsp.util.apply_workspace_edit(preferred.edit, client.offset_encoding)
  vim.cmd("write")
  step("fixed and written")

  wait_for("the fixed finding to disappear", function()
    return not has_code(buf, "JX106") and has_code(buf, "JX101")
  end)
  results.diagnostics_after_fix = lsp_diagnostics(buf)
  step("diagnostics after the fix")
  client:stop()
end

local ok, err = pcall(run)
results.ok = ok
results.error = ok and vim.NIL or tostring(err)
local handle = assert(io.open(out, "w"))
handle:write(vim.json.encode(results))
handle:close()
vim.cmd(ok and "qa!" or "cquit! 1")
