/**
 * Which Python runs the server: the `xlalens.interpreter` setting, else the interpreter the Python
 * extension (ms-python.python) selected for the workspace folder, else `python3` from PATH.
 */
import { PythonExtension, ResolvedVersionInfo } from '@vscode/python-extension';
import { Disposable, LogOutputChannel, WorkspaceFolder } from 'vscode';
import { MINIMUM_PYTHON } from './constants';
import { describeError } from './logging';

export type InterpreterSource = 'setting' | 'python-extension' | 'path';

export interface Interpreter {
    /** The executable and any leading arguments. */
    command: string[];
    source: InterpreterSource;
}

/** Thrown when the only interpreter on offer cannot run xlalens. */
export class UnsupportedInterpreterError extends Error {}

/** The Python extension's API, or undefined when it is not installed (it is optional). */
async function pythonExtension(log: LogOutputChannel): Promise<PythonExtension | undefined> {
    try {
        return await PythonExtension.api();
    } catch (error) {
        log.info(`Python extension unavailable: ${describeError(error)}`);
        return undefined;
    }
}

function tooOld(version: ResolvedVersionInfo): boolean {
    return version.major < MINIMUM_PYTHON.major
        || (version.major === MINIMUM_PYTHON.major && version.minor < MINIMUM_PYTHON.minor);
}

function pythonOnPath(): string {
    return process.platform === 'win32' ? 'python' : 'python3';
}

/**
 * The interpreter for `folder`.
 *
 * @throws UnsupportedInterpreterError when the Python extension's interpreter is older than
 *     xlalens supports: falling back silently would run a different Python than the user picked.
 */
export async function findInterpreter(
    configured: string[],
    folder: WorkspaceFolder | undefined,
    log: LogOutputChannel,
): Promise<Interpreter> {
    if (configured.length > 0) {
        return { command: configured, source: 'setting' };
    }
    const api = await pythonExtension(log);
    if (api !== undefined) {
        const environments = api.environments;
        const environment = await environments.resolveEnvironment(environments.getActiveEnvironmentPath(folder?.uri));
        const executable = environment?.executable.uri?.fsPath;
        if (environment !== undefined && executable !== undefined) {
            const version = environment.version;
            if (version !== undefined && tooOld(version)) {
                throw new UnsupportedInterpreterError(
                    `${executable} is Python ${version.major}.${version.minor}; xlalens needs `
                    + `${MINIMUM_PYTHON.major}.${MINIMUM_PYTHON.minor} or newer. Select another interpreter `
                    + 'or set xlalens.interpreter.',
                );
            }
            return { command: [executable], source: 'python-extension' };
        }
        log.warn('The Python extension has no interpreter selected for this workspace.');
    }
    return { command: [pythonOnPath()], source: 'path' };
}

/** Call `listener` when the Python extension's interpreter changes (never, without the extension). */
export async function onDidChangePythonInterpreter(listener: () => void, log: LogOutputChannel): Promise<Disposable> {
    const api = await pythonExtension(log);
    if (api === undefined) {
        return new Disposable(() => undefined);
    }
    return api.environments.onDidChangeActiveEnvironmentPath(() => {
        listener();
    });
}
