-- The screen a Neovim user sees: the xlalens server attached, diagnostics as virtual text, and the
-- hover of the finding on $XLALENS_LINE open. Loaded with `nvim --clean -u screen.lua FILE` inside
-- tmux; when the hover is up it writes "ready" to $XLALENS_OUT and the test captures the pane.

local python = assert(os.getenv("XLALENS_PY"), "XLALENS_PY is not set")
local out = assert(os.getenv("XLALENS_OUT"), "XLALENS_OUT is not set")
local line = tonumber((assert(os.getenv("XLALENS_LINE"), "XLALENS_LINE is not set")))

vim.o.swapfile = false
vim.o.shortmess = vim.o.shortmess .. "I"
vim.diagnostic.config({ virtual_text = true, signs = false, underline = false })
vim.lsp.config("xlalens", {
  cmd = { python, "-m", "xlalens.server" },
  filetypes = { "python" },
  root_markers = { "pyproject.toml" },
  settings = { xlalens = { debounceMs = 10, inlayHints = false } },
})
vim.lsp.enable("xlalens")

local function report(text)
  local handle = assert(io.open(out, "w"))
  handle:write(text)
  handle:close()
end

vim.api.nvim_create_autocmd("DiagnosticChanged", {
  callback = function(event)
    if #vim.diagnostic.get(event.buf) == 0 or vim.g.xlalens_hovered then
      return
    end
    vim.g.xlalens_hovered = true
    vim.defer_fn(function()
      vim.api.nvim_win_set_cursor(0, { line, 8 })
      vim.lsp.buf.hover({ border = "single", max_width = 96 })
      vim.defer_fn(function() report("ready") end, 1500)
    end, 300)
  end,
})
