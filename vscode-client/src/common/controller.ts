/**
 * Owns the running language client: starts, restarts and stops it, and tells it about changes.
 */
import { ConfigurationChangeEvent, Disposable, LogOutputChannel, window, workspace } from 'vscode';
import { DidChangeConfigurationNotification, ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';
import { RESTART_DELAY_MS } from './constants';
import { describeError } from './logging';
import { ServerLaunch, createLanguageClient, resolveServerLaunch } from './server';
import { affectsLaunch, affectsServerSection, readSettings } from './settings';

export class LanguageServerController implements Disposable {
    private client: LanguageClient | undefined;
    /**
     * Restarts run one after another, so that two never interleave their stop and start; each
     * catches its own errors, since a rejected one would also reject every one queued after it.
     */
    private restarts: Promise<void> = Promise.resolve();
    private restartTimer: NodeJS.Timeout | undefined;

    constructor(
        private readonly extensionPath: string,
        private readonly log: LogOutputChannel,
        private readonly restartDelayMs = RESTART_DELAY_MS,
    ) {}

    /** Stop the server, if one runs, and start one with the current settings; never rejects. */
    restart(): Promise<void> {
        this.cancelScheduledRestart();
        this.restarts = this.restarts.then(() => this.replaceClient());
        return this.restarts;
    }

    /** Restart once the changes arriving now have settled. */
    scheduleRestart(): void {
        this.cancelScheduledRestart();
        this.restartTimer = setTimeout(() => void this.restart(), this.restartDelayMs);
    }

    async onDidChangeConfiguration(event: ConfigurationChangeEvent): Promise<void> {
        if (affectsLaunch(event)) {
            this.scheduleRestart();
        } else if (affectsServerSection(event) && this.client?.isRunning() === true) {
            // `settings: null` makes the server pull its section, which answerConfiguration translates.
            try {
                await this.client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
            } catch (error) {
                this.log.warn(`Telling the server about new settings failed: ${describeError(error)}`);
            }
        }
    }

    /** The Python extension switched interpreters: restart unless the settings pin the server's. */
    onDidChangePythonInterpreter(): void {
        const settings = readSettings(workspace.workspaceFolders?.[0]);
        if (settings.interpreter.length === 0 && settings.path.length === 0) {
            this.scheduleRestart();
        }
    }

    /** Run a command of the language server (`workspace/executeCommand`). */
    async executeServerCommand(command: string, args: unknown[]): Promise<unknown> {
        const client = this.client;
        if (client?.isRunning() !== true) {
            throw new Error('the language server is not running (xlalens: Show Logs says why)');
        }
        return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
    }

    /** Stop the server and forget any scheduled restart. */
    async stop(): Promise<void> {
        this.cancelScheduledRestart();
        await this.restarts;
        await this.stopClient();
    }

    dispose(): void {
        void this.stop();
    }

    private cancelScheduledRestart(): void {
        clearTimeout(this.restartTimer);
        this.restartTimer = undefined;
    }

    private async replaceClient(): Promise<void> {
        await this.stopClient();
        const folder = workspace.workspaceFolders?.[0];
        const settings = readSettings(folder);
        if (!settings.enable) {
            this.log.info('xlalens.enable is off: the language server is not started.');
            return;
        }
        let launch: ServerLaunch;
        try {
            launch = await resolveServerLaunch(settings, folder, this.extensionPath, this.log);
        } catch (error) {
            this.log.error(`The server cannot start: ${describeError(error)}`);
            if (settings.showNotifications === 'off') {
                return;
            }
            void window
                .showErrorMessage(`xlalens: the language server cannot start: ${describeError(error)}`, 'Show Logs')
                .then((choice) => {
                    if (choice !== undefined) {
                        this.log.show();
                    }
                });
            return;
        }
        this.log.info(`Starting the server: ${[launch.command, ...launch.args].join(' ')}`);
        try {
            this.client = createLanguageClient(launch, settings, this.log);
            await this.client.start();
        } catch (error) {
            // vscode-languageclient shows start failures itself; the log keeps the details.
            this.log.error(`The server did not start: ${describeError(error)}`);
        }
    }

    private async stopClient(): Promise<void> {
        const client = this.client;
        this.client = undefined;
        if (client === undefined) {
            return;
        }
        try {
            await client.dispose();
        } catch (error) {
            this.log.warn(`Stopping the server failed: ${describeError(error)}`);
        }
    }
}
