/**
 * A stand-in for the `vscode` module, and a fake LanguageClient, for tests that run under plain
 * Node: `@vscode/test-electron` would download VS Code at test time, which CI cannot.
 *
 * Importing this module installs both through `Module._load`, so it must be imported before any
 * module of the extension. Tests set up and inspect {@link state}; {@link resetState} starts over.
 */
import Module from 'node:module';
import * as path from 'node:path';

type Listener<T> = (value: T) => unknown;

export class Disposable {
    constructor(private readonly onDispose: () => unknown) {}

    static from(...disposables: { dispose(): unknown }[]): Disposable {
        return new Disposable(() => {
            disposables.forEach((d) => d.dispose());
        });
    }

    dispose(): void {
        this.onDispose();
    }
}

export class EventEmitter<T> {
    private readonly listeners = new Set<Listener<T>>();

    readonly event = (listener: Listener<T>): Disposable => {
        this.listeners.add(listener);
        return new Disposable(() => this.listeners.delete(listener));
    };

    /** Call every listener and wait for the promises they return. */
    async fire(value: T): Promise<void> {
        await Promise.all([...this.listeners].map((listener) => listener(value)));
    }
}

export class Uri {
    private constructor(private readonly text: string) {}

    static file(fsPath: string): Uri {
        return new Uri(`file://${fsPath}`);
    }

    static parse(text: string): Uri {
        return new Uri(text);
    }

    get scheme(): string {
        return this.text.slice(0, this.text.indexOf(':'));
    }

    get fsPath(): string {
        return this.text.replace(/^file:\/\//, '');
    }

    toString(): string {
        return this.text;
    }
}

export class Position {
    constructor(
        readonly line: number,
        readonly character: number,
    ) {}

    compareTo(other: Position): number {
        return this.line - other.line || this.character - other.character;
    }
}

export class Range {
    constructor(
        readonly start: Position,
        readonly end: Position,
    ) {}

    contains(position: Position): boolean {
        return this.start.compareTo(position) <= 0 && position.compareTo(this.end) <= 0;
    }
}

export class Diagnostic {
    source?: string;
    code?: string | { value: string; target: Uri };

    constructor(
        readonly range: Range,
        readonly message: string,
    ) {}
}

export class MarkdownString {
    constructor(readonly value: string) {}
}

export class Hover {
    constructor(readonly contents: (MarkdownString | string)[]) {}
}

/** Classes vscode-languageclient extends when it loads; nothing here calls into them. */
const classesExtendedAtLoad = Object.fromEntries(
    [
        'CompletionItem',
        'CodeLens',
        'DocumentLink',
        'CodeAction',
        'CallHierarchyItem',
        'TypeHierarchyItem',
        'SymbolInformation',
        'InlayHint',
        'CancellationError',
    ].map((name) => [name, class extends Object {}]),
);

export const LogLevel = { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 } as const;
export const ViewColumn = { Active: -1, Beside: -2 } as const;

export class FakeLogChannel {
    readonly lines: string[] = [];
    shown = 0;
    logLevel = LogLevel.Info;
    readonly onDidChangeLogLevel = new EventEmitter<number>().event;

    constructor(readonly name: string) {}

    trace(message: string): void {
        this.lines.push(`trace ${message}`);
    }
    debug(message: string): void {
        this.lines.push(`debug ${message}`);
    }
    info(message: string): void {
        this.lines.push(`info ${message}`);
    }
    warn(message: string): void {
        this.lines.push(`warn ${message}`);
    }
    error(message: string): void {
        this.lines.push(`error ${message}`);
    }
    appendLine(message: string): void {
        this.lines.push(message);
    }
    show(): void {
        this.shown += 1;
    }
    dispose(): void {
        this.lines.push('disposed');
    }
}

export class FakeWebviewPanel {
    readonly webview = { html: '' };
    revealed = 0;
    disposed = false;
    private readonly disposeEmitter = new EventEmitter<undefined>();
    readonly onDidDispose = this.disposeEmitter.event;

    constructor(
        readonly viewType: string,
        readonly title: string,
        readonly options: unknown,
    ) {}

    reveal(): void {
        this.revealed += 1;
    }

    dispose(): void {
        this.disposed = true;
        void this.disposeEmitter.fire(undefined);
    }
}

interface ServerCommandCall {
    command: string;
    args: unknown[];
}

/** Records what the extension asks of its language client; never starts a process. */
export class FakeLanguageClient {
    running = false;
    disposed = false;
    readonly notifications: { method: string; params: unknown }[] = [];

    constructor(
        readonly id: string,
        readonly name: string,
        readonly serverOptions: { command: string; args: string[]; options?: { cwd?: string } },
        readonly clientOptions: Record<string, unknown>,
    ) {
        if (state.constructionFailure !== undefined) {
            throw state.constructionFailure;
        }
        state.clients.push(this);
    }

    start(): Promise<void> {
        if (state.startFailure !== undefined) {
            return Promise.reject(state.startFailure);
        }
        this.running = true;
        return Promise.resolve();
    }

    isRunning(): boolean {
        return this.running;
    }

    dispose(): Promise<void> {
        this.running = false;
        this.disposed = true;
        return Promise.resolve();
    }

    sendNotification(type: { method: string }, params: unknown): Promise<void> {
        this.notifications.push({ method: type.method, params });
        return Promise.resolve();
    }

    sendRequest(type: { method: string }, params: { command: string; arguments: unknown[] }): Promise<unknown> {
        if (type.method !== 'workspace/executeCommand') {
            return Promise.reject(new Error(`unexpected request ${type.method}`));
        }
        state.serverCommandCalls.push({ command: params.command, args: params.arguments });
        return new Promise((resolve) => {
            resolve(state.answerServerCommand(params.command, params.arguments));
        });
    }
}

interface WorkspaceFolder {
    uri: Uri;
    name: string;
    index: number;
}

interface QuickPickItem {
    label: string;
}

/** What the fake VS Code holds; tests write it to set a scene and read it to check the outcome. */
export const state = {
    settings: {} as Record<string, unknown>,
    /** Every setting the code has read, by its full name. */
    settingsRead: new Set<string>(),
    workspaceFolders: [] as WorkspaceFolder[],
    extensions: new Map<string, unknown>(),
    commands: new Map<string, (...args: unknown[]) => unknown>(),
    messages: [] as { kind: 'error' | 'information'; text: string }[],
    messageChoice: undefined as string | undefined,
    quickPick: (items: QuickPickItem[]): QuickPickItem | undefined => items[0],
    quickPicks: [] as string[][],
    activeTextEditor: undefined as { document: { uri: Uri }; selection: { active: Position } } | undefined,
    diagnostics: new Map<string, Diagnostic[]>(),
    hovers: [] as Hover[],
    openedExternally: [] as string[],
    panels: [] as FakeWebviewPanel[],
    channels: [] as FakeLogChannel[],
    clients: [] as FakeLanguageClient[],
    constructionFailure: undefined as Error | undefined,
    startFailure: undefined as Error | undefined,
    serverCommandCalls: [] as ServerCommandCall[],
    answerServerCommand: (command: string, args: unknown[]): unknown => {
        throw new Error(`no answer for ${command} ${JSON.stringify(args)}`);
    },
    configurationChanged: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
};

export function resetState(): void {
    state.settings = {};
    state.settingsRead = new Set();
    state.workspaceFolders = [{ uri: Uri.file(path.join(path.sep, 'work', 'project')), name: 'project', index: 0 }];
    state.extensions.clear();
    state.commands.clear();
    state.messages = [];
    state.messageChoice = undefined;
    state.quickPick = (items) => items[0];
    state.quickPicks = [];
    state.activeTextEditor = undefined;
    state.diagnostics.clear();
    state.hovers = [];
    state.openedExternally = [];
    state.panels = [];
    state.channels = [];
    state.clients = [];
    state.constructionFailure = undefined;
    state.startFailure = undefined;
    state.serverCommandCalls = [];
    state.answerServerCommand = (command, args) => {
        throw new Error(`no answer for ${command} ${JSON.stringify(args)}`);
    };
    state.configurationChanged = new EventEmitter();
}
resetState();

/** Change settings (`{'xlalens.select': ['JX1']}`) and tell the listeners, as VS Code does. */
export async function changeSettings(changed: Record<string, unknown>): Promise<void> {
    Object.assign(state.settings, changed);
    const keys = Object.keys(changed);
    await state.configurationChanged.fire({
        affectsConfiguration: (section) => keys.some((key) => key === section || key.startsWith(`${section}.`)),
    });
}

function configuration(section: string | undefined): { get(key: string, fallback?: unknown): unknown } {
    return {
        get: (key, fallback) => {
            const name = section === undefined ? key : `${section}.${key}`;
            state.settingsRead.add(name);
            return name in state.settings ? state.settings[name] : fallback;
        },
    };
}

const vscode = {
    Disposable,
    EventEmitter,
    Uri,
    Position,
    Range,
    Diagnostic,
    MarkdownString,
    Hover,
    ...classesExtendedAtLoad,
    LogLevel,
    ViewColumn,
    workspace: {
        get workspaceFolders() {
            return state.workspaceFolders.length > 0 ? state.workspaceFolders : undefined;
        },
        getConfiguration: configuration,
        getWorkspaceFolder: (uri: Uri) =>
            state.workspaceFolders.find((folder) => uri.fsPath.startsWith(folder.uri.fsPath)),
        onDidChangeConfiguration: (listener: Listener<{ affectsConfiguration(section: string): boolean }>) =>
            state.configurationChanged.event(listener),
    },
    window: {
        get activeTextEditor() {
            return state.activeTextEditor;
        },
        createOutputChannel: (name: string) => {
            const channel = new FakeLogChannel(name);
            state.channels.push(channel);
            return channel;
        },
        showErrorMessage: (text: string) => {
            state.messages.push({ kind: 'error', text });
            return Promise.resolve(state.messageChoice);
        },
        showInformationMessage: (text: string) => {
            state.messages.push({ kind: 'information', text });
            return Promise.resolve(undefined);
        },
        showQuickPick: (items: QuickPickItem[]) => {
            state.quickPicks.push(items.map((item) => item.label));
            return Promise.resolve(state.quickPick(items));
        },
        createWebviewPanel: (viewType: string, title: string, _column: unknown, options: unknown) => {
            const panel = new FakeWebviewPanel(viewType, title, options);
            state.panels.push(panel);
            return panel;
        },
    },
    commands: {
        registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => {
            state.commands.set(id, handler);
            return new Disposable(() => state.commands.delete(id));
        },
        executeCommand: (id: string) => {
            if (id === 'vscode.executeHoverProvider') {
                return Promise.resolve(state.hovers);
            }
            return Promise.reject(new Error(`unexpected command ${id}`));
        },
    },
    languages: {
        getDiagnostics: (uri: Uri) => state.diagnostics.get(uri.toString()) ?? [],
    },
    env: {
        openExternal: (uri: Uri) => {
            state.openedExternally.push(uri.toString());
            return Promise.resolve(true);
        },
        asExternalUri: (uri: Uri) => Promise.resolve(uri),
    },
    extensions: {
        getExtension: (id: string) => state.extensions.get(id),
    },
};

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleWithLoad = Module as unknown as { _load: Load };
const load = moduleWithLoad._load;
let languageClient: Record<string, unknown> | undefined;
moduleWithLoad._load = function (request, parent, isMain) {
    if (request === 'vscode') {
        return vscode;
    }
    if (request === 'vscode-languageclient/node') {
        // The real module (its protocol types, errors and enums) with only LanguageClient faked.
        languageClient ??= { ...(load(request, parent, isMain) as object), LanguageClient: FakeLanguageClient };
        return languageClient;
    }
    return load(request, parent, isMain);
};

/** A fake Python extension (ms-python.python): what it was asked, and how to announce a change. */
export interface FakePythonExtension {
    /** The resources `getActiveEnvironmentPath` was asked about. */
    resources: (string | undefined)[];
    interpreterChanged: EventEmitter<unknown>;
}

/** Install a Python extension whose interpreter is `executable` (none when undefined). */
export function installPythonExtension(
    executable: string | undefined,
    version = { major: 3, minor: 11, micro: 7 },
): FakePythonExtension {
    const fake: FakePythonExtension = { resources: [], interpreterChanged: new EventEmitter<unknown>() };
    const environments = {
        getActiveEnvironmentPath: (resource: Uri | undefined) => {
            fake.resources.push(resource?.toString());
            return { id: 'active', path: executable ?? '' };
        },
        resolveEnvironment: (environment: { path: string }) =>
            Promise.resolve(
                executable === undefined
                    ? undefined
                    : { path: environment.path, executable: { uri: Uri.file(executable) }, version },
            ),
        onDidChangeActiveEnvironmentPath: fake.interpreterChanged.event,
    };
    state.extensions.set('ms-python.python', {
        isActive: false,
        activate: () => Promise.resolve(),
        exports: { environments },
    });
    return fake;
}
