/**
 * Names shared with package.json and with the language server (server/commands.py).
 */

/** The client id: also the settings section, so vscode-languageclient reads `xlalens.trace.server`. */
export const SERVER_ID = 'xlalens';
export const SERVER_NAME = 'xlalens';
/** The `source` of the server's diagnostics (server/diagnostics.py). */
export const DIAGNOSTIC_SOURCE = 'xlalens';

/** Commands this extension contributes. */
export const Command = {
    restart: 'xlalens.restart',
    showLogs: 'xlalens.showLogs',
    openExplainer: 'xlalens.openExplainer',
    openCalculator: 'xlalens.openCalculator',
} as const;

/** Commands the language server executes (`workspace/executeCommand`). */
export const ServerCommand = {
    explain: 'xlalens.explain',
} as const;

/** The oldest Python xlalens runs on (pyproject.toml `requires-python`). */
export const MINIMUM_PYTHON = { major: 3, minor: 11 } as const;

/** Settings and interpreter changes arrive in bursts; restart once they settle. */
export const RESTART_DELAY_MS = 1000;
