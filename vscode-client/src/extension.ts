/**
 * The extension's lifecycle: create the log, the server controller and the commands, start the
 * server, and restart it when its settings or the Python interpreter change.
 */
import { ExtensionContext, commands, workspace } from 'vscode';
import { Command } from './common/constants';
import { LanguageServerController } from './common/controller';
import { createLogChannel } from './common/logging';
import { onDidChangePythonInterpreter } from './common/python';
import { registerExplainerCommands } from './explainer/commands';
import { ExplainerPanel } from './explainer/panel';

let controller: LanguageServerController | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
    const log = createLogChannel();
    const server = new LanguageServerController(context.extensionPath, log);
    const panel = new ExplainerPanel();
    controller = server;
    context.subscriptions.push(
        log,
        server,
        panel,
        commands.registerCommand(Command.restart, () => server.restart()),
        commands.registerCommand(Command.showLogs, () => {
            log.show();
        }),
        ...registerExplainerCommands(server, panel, log),
        workspace.onDidChangeConfiguration((event) => server.onDidChangeConfiguration(event)),
        await onDidChangePythonInterpreter(() => {
            server.onDidChangePythonInterpreter();
        }, log),
    );
    await server.restart();
}

export async function deactivate(): Promise<void> {
    await controller?.stop();
    controller = undefined;
}
