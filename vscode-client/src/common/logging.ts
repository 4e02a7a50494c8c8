/**
 * The "xlalens" output channel: the extension's own log, the server's stderr and the LSP trace.
 */
import { LogOutputChannel, window } from 'vscode';
import { SERVER_NAME } from './constants';

export function createLogChannel(): LogOutputChannel {
    return window.createOutputChannel(SERVER_NAME, { log: true });
}

/** The message of anything thrown, for logs and notifications. */
export function describeError(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
