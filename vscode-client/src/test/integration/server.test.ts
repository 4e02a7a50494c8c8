/**
 * End to end: start the server with the command the extension builds from its resolved settings,
 * and drive it over stdio with vscode-languageclient's own protocol connection, answering
 * `workspace/configuration` with the extension's middleware.
 *
 * `useBundled` runs with a fresh virtual environment that has no packages at all, so the server
 * can only come from `bundled/libs` and `bundled/native` (build them first: scripts/bundle.sh
 * host). `fromEnvironment` runs with XLALENS_PYTHON (default python3), which must have xlalens
 * installed.
 */
import { FakeLogChannel, Uri, resetState, state } from '../mock/vscode';
import * as assert from 'node:assert/strict';
import { ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LogOutputChannel, workspace } from 'vscode';
import {
    CancellationToken,
    ConfigurationParams,
    ConfigurationRequest,
    Diagnostic,
    DiagnosticRefreshRequest,
    DidOpenTextDocumentNotification,
    DocumentDiagnosticReport,
    DocumentDiagnosticRequest,
    ExecuteCommandRequest,
    ExitNotification,
    HoverRequest,
    InitializeRequest,
    InitializedNotification,
    MarkupContent,
    ProtocolConnection,
    ShowMessageNotification,
    ShowMessageParams,
    ShutdownRequest,
    StreamMessageReader,
    StreamMessageWriter,
    createProtocolConnection,
} from 'vscode-languageclient/node';
import { ServerLaunch, bundledPaths, clientOptions, answerConfiguration, resolveServerLaunch } from '../../common/server';
import { ImportStrategy, readSettings } from '../../common/settings';
import { RunServerCommand, calculatorLink, calculatorUrl, reachableUrl } from '../../explainer/address';
import { CALCULATORS } from '../../explainer/calculators';
import { temporaryDirectory } from '../helpers';

const EXTENSION_PATH = path.resolve(__dirname, '..', '..', '..');
const PYTHON = process.env.XLALENS_PYTHON ?? 'python3';

/** JX106 on line 9, JX101 on line 10 (`if loss > 10.0:` inside a jitted function). */
const TRAIN = `import jax
import jax.numpy as jnp


@jax.jit
def loss_fn(params, x):
    loss = jnp.mean((x @ params) ** 2)
    print("loss:", loss)
    if loss > 10.0:
        loss = jnp.log(loss)
    return loss
`;

/** JX201: a new jitted function per iteration, whose hover carries the retrace calculator. */
const RETRACE = `import jax


def train(xs):
    for x in xs:
        f = jax.jit(lambda y: y * 2)
        f(x)
`;

/** A Python with nothing installed: whatever the server imports must come from bundled/libs. */
function emptyEnvironmentPython(): string {
    const environment = temporaryDirectory('xlalens-empty-venv-');
    execFileSync(PYTHON, ['-m', 'venv', '--without-pip', environment]);
    return path.join(environment, process.platform === 'win32' ? 'Scripts' : 'bin', 'python');
}

class Session {
    readonly messages: ShowMessageParams[] = [];
    readonly stderr: string[] = [];
    private opened = 0;

    private constructor(
        readonly launch: ServerLaunch,
        private readonly process: ChildProcessWithoutNullStreams,
        readonly connection: ProtocolConnection,
        private readonly folder: string,
    ) {}

    /** Start the server the way the extension does, for the workspace folder in the fake VS Code. */
    static async start(): Promise<Session> {
        const folder = workspace.workspaceFolders?.[0];
        assert.ok(folder);
        const log = new FakeLogChannel('xlalens') as unknown as LogOutputChannel;
        const settings = readSettings(folder);
        const launch = await resolveServerLaunch(settings, folder, EXTENSION_PATH, log);
        const child = spawn(launch.command, launch.args, { cwd: launch.cwd, stdio: 'pipe' });
        const connection = createProtocolConnection(
            new StreamMessageReader(child.stdout),
            new StreamMessageWriter(child.stdin),
        );
        const session = new Session(launch, child, connection, folder.uri.fsPath);
        child.stderr.on('data', (chunk: Buffer) => {
            session.stderr.push(chunk.toString());
        });
        connection.onNotification(ShowMessageNotification.type, (params) => {
            session.messages.push(params);
        });
        connection.onRequest(ConfigurationRequest.type, (params: ConfigurationParams, token: CancellationToken) =>
            answerConfiguration(params, token, (asked) => asked.items.map(() => null)),
        );
        connection.onRequest(DiagnosticRefreshRequest.type, () => undefined);
        connection.listen();
        await connection.sendRequest(InitializeRequest.type, {
            processId: process.pid,
            // eslint-disable-next-line @typescript-eslint/no-deprecated -- InitializeParams requires it; VS Code sends it.
            rootUri: folder.uri.toString(),
            workspaceFolders: [{ uri: folder.uri.toString(), name: folder.name }],
            capabilities: {
                workspace: { configuration: true, workspaceFolders: true, diagnostics: { refreshSupport: true } },
                textDocument: {
                    synchronization: { didSave: true },
                    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
                    publishDiagnostics: { codeDescriptionSupport: true, dataSupport: true, relatedInformation: true },
                    hover: { contentFormat: ['markdown', 'plaintext'] },
                },
            },
            initializationOptions: clientOptions(settings, log).initializationOptions as unknown,
        });
        await connection.sendNotification(InitializedNotification.type, {});
        return session;
    }

    /** Open `text` as a new file of the workspace folder; return its URI. */
    async open(text: string): Promise<string> {
        this.opened += 1;
        const file = path.join(this.folder, `file${this.opened}.py`);
        fs.writeFileSync(file, text);
        const uri = Uri.file(file).toString();
        await this.openDocument(uri, text);
        return uri;
    }

    async openDocument(uri: string, text: string): Promise<void> {
        await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri, languageId: 'python', version: 1, text },
        });
    }

    /** Pull diagnostics, as vscode-languageclient does with `diagnosticPullOptions`. */
    async diagnostics(uri: string): Promise<Diagnostic[]> {
        const report: DocumentDiagnosticReport = await this.connection.sendRequest(DocumentDiagnosticRequest.type, {
            textDocument: { uri },
        });
        assert.equal(report.kind, 'full');
        return report.items;
    }

    /** What the extension's commands use to run server commands. */
    readonly runServerCommand: RunServerCommand = (command, args) =>
        this.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });

    async stop(): Promise<void> {
        const exited = new Promise((resolve) => this.process.once('exit', resolve));
        await this.connection.sendRequest(ShutdownRequest.type);
        await this.connection.sendNotification(ExitNotification.type);
        await exited;
        this.connection.dispose();
    }
}

async function fetchPage(url: string): Promise<string> {
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    return response.text();
}

interface Strategy {
    strategy: ImportStrategy;
    interpreter: () => string;
    checkLaunch: (session: Session) => void;
}

const STRATEGIES: Strategy[] = [
    {
        strategy: 'useBundled',
        interpreter: emptyEnvironmentPython,
        checkLaunch: (session) => {
            assert.deepEqual(session.launch.args, [bundledPaths(EXTENSION_PATH).launcher]);
            // The environment is empty, so libcst comes from bundled/native (scripts/bundle.sh host,
            // as ci.sh builds it) or not at all, and then the launcher says so.
            const bundlesLibcst = fs.existsSync(path.join(EXTENSION_PATH, 'bundled', 'native'));
            assert.equal(/libcst is not installed/.test(session.stderr.join('')), !bundlesLibcst, session.stderr.join(''));
        },
    },
    {
        strategy: 'fromEnvironment',
        interpreter: () => PYTHON,
        checkLaunch: (session) => {
            assert.deepEqual(session.launch.args, ['-m', 'xlalens.server']);
        },
    },
];

for (const { strategy, interpreter, checkLaunch } of STRATEGIES) {
    describe(`the server started with importStrategy ${strategy}`, () => {
        let session: Session;

        before(async () => {
            resetState();
            const folder = temporaryDirectory('xlalens-workspace-');
            state.workspaceFolders = [{ uri: Uri.file(folder), name: 'workspace', index: 0 }];
            Object.assign(state.settings, {
                'xlalens.importStrategy': strategy,
                'xlalens.interpreter': [interpreter()],
                // Non-default settings, to see them reach the server under the names it knows.
                'xlalens.ignore': ['JX106'],
                'xlalens.inlayHints.enable': false,
                'xlalens.trace.server': 'verbose',
            });
            session = await Session.start();
        });

        after(async () => {
            await session.stop();
        });

        test('is the command the extension builds', () => {
            checkLaunch(session);
        });

        test('reports JX101 with its explainer link, honours the settings and complains about none', async () => {
            const uri = await session.open(TRAIN);
            const diagnostics = await session.diagnostics(uri);
            const codes = diagnostics.map((diagnostic) => diagnostic.code);
            assert.ok(codes.includes('JX101'), `${JSON.stringify(codes)} ${session.stderr.join('')}`);
            assert.ok(!codes.includes('JX106'), 'xlalens.ignore reached the server');
            const jx101 = diagnostics.find((diagnostic) => diagnostic.code === 'JX101');
            assert.ok(jx101);
            assert.equal(jx101.range.start.line, 8);
            assert.match(jx101.codeDescription?.href ?? '', /^http:\/\/127\.0\.0\.1:8711\/rules\/JX101$/);
            assert.deepEqual(session.messages, []);
        });

        test('checks a notebook cell, which the document selector sends as its own document', async () => {
            const cell = `vscode-notebook-cell:${session.launch.cwd ?? ''}/notebook.ipynb#W0sZmlsZQ%3D%3D`;
            await session.openDocument(cell, TRAIN);
            const codes = (await session.diagnostics(cell)).map((diagnostic) => diagnostic.code);
            assert.ok(codes.includes('JX101'), JSON.stringify(codes));
        });

        test('serves the explainer section that Open Explainer shows', async () => {
            const uri = await session.open(TRAIN);
            const jx101 = (await session.diagnostics(uri)).find((diagnostic) => diagnostic.code === 'JX101');
            const url = await reachableUrl(jx101?.codeDescription?.href ?? '', session.runServerCommand);
            assert.match(await fetchPage(url), /<html/i);
        });

        test("serves the calculator of a finding's hover, prefilled", async () => {
            const uri = await session.open(RETRACE);
            const jx201 = (await session.diagnostics(uri)).find((diagnostic) => diagnostic.code === 'JX201');
            assert.ok(jx201, 'JX201 is reported');
            const hover = await session.connection.sendRequest(HoverRequest.type, {
                textDocument: { uri },
                position: jx201.range.start,
            });
            const link = calculatorLink((hover?.contents as MarkupContent).value);
            assert.match(link ?? '', /\/calc\/retrace\?calls=/);
            const page = await fetchPage(await reachableUrl(link ?? '', session.runServerCommand));
            assert.match(page, /retrace/i);
        });

        test('serves every calculator Open Calculator offers', async () => {
            for (const { name } of CALCULATORS) {
                const url = await calculatorUrl(name, session.runServerCommand);
                assert.match(url, new RegExp(`/calc/${name}$`));
                await fetchPage(url);
            }
        });
    });
}
