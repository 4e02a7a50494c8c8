/**
 * The server process the extension starts, and the LanguageClient that talks to it.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LogOutputChannel, Uri, WorkspaceFolder, workspace } from 'vscode';
import {
    CancellationToken,
    ConfigurationParams,
    ConfigurationRequest,
    DocumentSelector,
    Executable,
    LanguageClient,
    LanguageClientOptions,
    ResponseError,
    RevealOutputChannelOn,
} from 'vscode-languageclient/node';
import { SERVER_ID, SERVER_NAME } from './constants';
import { findInterpreter } from './python';
import { ExtensionSettings, readSettings, serverSection } from './settings';

/** A command line that starts the server over stdio. */
export interface ServerLaunch {
    command: string;
    args: string[];
    /** The workspace folder, where relative paths in `xlalens.args` (`--log-file`) start. */
    cwd: string | undefined;
}

/** Thrown when the settings name no server that can run. */
export class ServerLaunchError extends Error {}

/** Python files, unsaved ones and notebook cells. */
export const DOCUMENT_SELECTOR: DocumentSelector = [
    { scheme: 'file', language: 'python' },
    { scheme: 'untitled', language: 'python' },
    { scheme: 'vscode-notebook-cell', language: 'python' },
];

/** The launcher that runs the bundled xlalens, and the packages it puts on `sys.path`. */
export function bundledPaths(extensionPath: string): { launcher: string; libs: string } {
    const bundled = path.join(extensionPath, 'bundled');
    return { launcher: path.join(bundled, 'tool', 'lsp_server.py'), libs: path.join(bundled, 'libs') };
}

/**
 * The command that starts the server:
 * - `xlalens.path` set: `<path> server <args>` (the interpreter is not used);
 * - `useBundled`: `<interpreter> <extension>/bundled/tool/lsp_server.py <args>`;
 * - `fromEnvironment`: `<interpreter> -m xlalens.server <args>`, or the bundled launcher when the
 *   interpreter's environment has no xlalens (`environmentHasXlalens` false), as ruff's extension does.
 */
export function serverLaunch(
    settings: ExtensionSettings,
    interpreter: string[],
    extensionPath: string,
    cwd: string | undefined,
    environmentHasXlalens = true,
): ServerLaunch {
    // The server logs warnings and errors by default; xlalens.logLevel asks for more or less.
    const logging = settings.logLevel === 'warning' ? [] : ['--log-level', settings.logLevel];
    const serverArgs = [...logging, ...settings.args];
    if (settings.path.length > 0) {
        const [command, ...leading] = settings.path;
        return { command, args: [...leading, 'server', ...serverArgs], cwd };
    }
    const [command, ...leading] = interpreter;
    if (settings.importStrategy === 'fromEnvironment' && environmentHasXlalens) {
        return { command, args: [...leading, '-m', 'xlalens.server', ...serverArgs], cwd };
    }
    const { launcher, libs } = bundledPaths(extensionPath);
    if (!fs.existsSync(libs)) {
        throw new ServerLaunchError(
            `${libs} is missing (build it with scripts/bundle.sh), or set xlalens.importStrategy to fromEnvironment.`,
        );
    }
    return { command, args: [...leading, launcher, ...serverArgs], cwd };
}

/** The launch for `folder`'s settings, finding the interpreter only when one is needed. */
export async function resolveServerLaunch(
    settings: ExtensionSettings,
    folder: WorkspaceFolder | undefined,
    extensionPath: string,
    log: LogOutputChannel,
): Promise<ServerLaunch> {
    let interpreter: string[] = [];
    let environmentHasXlalens = true;
    if (settings.path.length === 0) {
        const found = await findInterpreter(settings.interpreter, folder, log);
        log.info(`Python interpreter (from ${found.source}): ${found.command.join(' ')}`);
        interpreter = found.command;
        if (settings.importStrategy === 'fromEnvironment') {
            environmentHasXlalens = await hasXlalensServer(interpreter);
            if (!environmentHasXlalens) {
                log.info("The interpreter's environment has no xlalens: running the bundled one.");
            }
        }
    }
    return serverLaunch(settings, interpreter, extensionPath, folder?.uri.fsPath, environmentHasXlalens);
}

/** Whether `interpreter` can import the language server (`importlib.util.find_spec`, nothing is run). */
export function hasXlalensServer(interpreter: string[]): Promise<boolean> {
    const [command, ...leading] = interpreter;
    const probe = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('xlalens.server') else 1)";
    return new Promise((resolve) => {
        execFile(command, [...leading, '-c', probe], { timeout: 20_000 }, (error) => {
            resolve(error === null);
        });
    });
}

/**
 * Answers the server's `workspace/configuration` requests for the `xlalens` section with
 * {@link serverSection}: VS Code's raw section has keys the server does not know
 * (`importStrategy`, `trace`, `inlayHints.enable` as an object) and it would report each one.
 */
export async function answerConfiguration(
    params: ConfigurationParams,
    token: CancellationToken,
    next: ConfigurationRequest.HandlerSignature,
): Promise<unknown[] | ResponseError> {
    const answers: unknown[] | ResponseError = await next(params, token);
    if (answers instanceof ResponseError) {
        return answers;
    }
    return params.items.map((item, index) => {
        if (item.section !== SERVER_ID) {
            return answers[index];
        }
        const folder = item.scopeUri ? workspace.getWorkspaceFolder(Uri.parse(item.scopeUri)) : undefined;
        return serverSection(readSettings(folder));
    });
}

export function clientOptions(settings: ExtensionSettings, log: LogOutputChannel): LanguageClientOptions {
    return {
        documentSelector: DOCUMENT_SELECTOR,
        outputChannel: log,
        traceOutputChannel: log,
        revealOutputChannelOn: RevealOutputChannelOn.Never,
        initializationOptions: { [SERVER_ID]: serverSection(settings) },
        // vscode-languageclient 10 pulls diagnostics neither on change nor on save unless told to.
        diagnosticPullOptions: { onChange: settings.run === 'onType', onSave: true },
        middleware: { workspace: { configuration: answerConfiguration } },
    };
}

export function createLanguageClient(
    launch: ServerLaunch,
    settings: ExtensionSettings,
    log: LogOutputChannel,
): LanguageClient {
    const executable: Executable = { command: launch.command, args: launch.args };
    if (launch.cwd !== undefined) {
        executable.options = { cwd: launch.cwd };
    }
    return new LanguageClient(SERVER_ID, SERVER_NAME, executable, clientOptions(settings, log));
}
