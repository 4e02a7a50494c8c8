import { Diagnostic, Hover, MarkdownString, Position, Range, Uri, resetState, state } from '../mock/vscode';
import * as assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { ExtensionContext } from 'vscode';
import { explainerHtml } from '../../explainer/panel';
import { activate, deactivate } from '../../extension';
import { extensionDirectory } from '../helpers';

const FILE = Uri.file('/work/project/train.py');
const SECTION = 'http://127.0.0.1:8711/tracing#python-control-flow';

/** An xlalens diagnostic on line 10 (0-based 9), columns 4-16, linking `href`. */
function finding(code: string, href: string): Diagnostic {
    const diagnostic = new Diagnostic(new Range(new Position(9, 4), new Position(9, 16)), `${code} finding`);
    diagnostic.source = 'xlalens';
    diagnostic.code = { value: code, target: Uri.parse(href) };
    return diagnostic;
}

function cursorAt(line: number, character: number): void {
    state.activeTextEditor = { document: { uri: FILE }, selection: { active: new Position(line, character) } };
}

/** The language server's explainer server listens on 40123: 8711 was taken. */
function answerExplainOn(port: number): void {
    state.answerServerCommand = (command, args) => {
        assert.equal(command, 'xlalens.explain');
        return { url: `http://127.0.0.1:${port}/${String(args[0])}` };
    };
}

async function run(command: string): Promise<void> {
    const handler = state.commands.get(command);
    assert.ok(handler, `${command} is registered`);
    await handler();
}

function framedUrl(): string | undefined {
    return /<iframe src="([^"]+)"/.exec(state.panels[0]?.webview.html ?? '')?.[1]?.replace(/&amp;/g, '&');
}

beforeEach(async () => {
    resetState();
    await activate({ extensionPath: extensionDirectory(), subscriptions: [] } as unknown as ExtensionContext);
});
afterEach(deactivate);

test('Open Explainer asks the server for its explainer address and frames the finding’s section', async () => {
    state.diagnostics.set(FILE.toString(), [finding('JX101', SECTION)]);
    cursorAt(9, 8);
    answerExplainOn(40123);
    await run('xlalens.openExplainer');

    assert.deepEqual(state.serverCommandCalls, [{ command: 'xlalens.explain', args: ['tracing#python-control-flow'] }]);
    assert.equal(state.panels.length, 1);
    assert.equal(framedUrl(), 'http://127.0.0.1:40123/tracing#python-control-flow');
    assert.match(state.panels[0]?.webview.html ?? '', /frame-src http:\/\/127\.0\.0\.1:40123;/);
});

test('a second explainer reuses the panel', async () => {
    state.diagnostics.set(FILE.toString(), [finding('JX101', SECTION)]);
    cursorAt(9, 8);
    answerExplainOn(8711);
    await run('xlalens.openExplainer');
    await run('xlalens.openExplainer');
    assert.equal(state.panels.length, 1);
    assert.equal(state.panels[0]?.revealed, 2);
});

test('with openExplainerIn: browser the section opens in the external browser', async () => {
    state.settings['xlalens.openExplainerIn'] = 'browser';
    state.diagnostics.set(FILE.toString(), [finding('JX101', SECTION)]);
    cursorAt(9, 4);
    answerExplainOn(8711);
    await run('xlalens.openExplainer');
    assert.deepEqual(state.openedExternally, [SECTION]);
    assert.equal(state.panels.length, 0);
});

test('a link to a hosted explainer opens as it is, without asking the server', async () => {
    const hosted = 'https://docs.example.org/xlalens/tracing#python-control-flow';
    state.diagnostics.set(FILE.toString(), [finding('JX101', hosted)]);
    cursorAt(9, 16);
    await run('xlalens.openExplainer');
    assert.deepEqual(state.serverCommandCalls, []);
    assert.equal(framedUrl(), hosted);
});

test('overlapping findings are offered to pick from', async () => {
    state.diagnostics.set(FILE.toString(), [
        finding('JX106', 'http://127.0.0.1:8711/tracing#printing'),
        finding('JX101', SECTION),
    ]);
    state.quickPick = (items) => items.find((item) => item.label === 'JX101');
    cursorAt(9, 8);
    answerExplainOn(8711);
    await run('xlalens.openExplainer');
    assert.deepEqual(state.quickPicks, [['JX106', 'JX101']]);
    assert.equal(framedUrl(), SECTION);
});

test('no finding under the cursor: a message, and nothing opens', async () => {
    const other = finding('JX101', SECTION);
    other.source = 'Pylance';
    state.diagnostics.set(FILE.toString(), [finding('JX101', SECTION), other]);
    cursorAt(3, 0);
    await run('xlalens.openExplainer');
    assert.deepEqual(state.messages, [{ kind: 'information', text: 'xlalens: no finding under the cursor.' }]);
    assert.equal(state.panels.length, 0);
});

test('a server that cannot answer is reported as an error', async () => {
    state.diagnostics.set(FILE.toString(), [finding('JX101', SECTION)]);
    cursorAt(9, 8);
    state.answerServerCommand = () => {
        throw new Error('the explainer server is not available: No module named xlalens.explainers');
    };
    await run('xlalens.openExplainer');
    assert.deepEqual(state.messages, [
        { kind: 'error', text: 'xlalens: the explainer server is not available: No module named xlalens.explainers' },
    ]);
});

test("Open Calculator opens the hover's calculator link, prefilled, at the served address", async () => {
    const link = 'http://127.0.0.1:8711/calc/retrace?calls=3&args=x:f32[8,128]';
    state.hovers = [
        new Hover([new MarkdownString(`**JX201** · retrace\n\n[Open the live calculator with these numbers](${link})`)]),
    ];
    cursorAt(5, 8);
    answerExplainOn(40123);
    await run('xlalens.openCalculator');
    assert.deepEqual(state.serverCommandCalls, [{ command: 'xlalens.explain', args: ['calc/retrace'] }]);
    assert.equal(framedUrl(), 'http://127.0.0.1:40123/calc/retrace?calls=3&args=x:f32[8,128]');
});

test('Open Calculator without a calculator under the cursor offers every calculator', async () => {
    state.quickPick = (items) => items.find((item) => item.label === 'shard-shape');
    answerExplainOn(8711);
    await run('xlalens.openCalculator');
    assert.deepEqual(state.quickPicks, [
        [
            'blockspec',
            'carry-check',
            'graph-hash',
            'pipeline',
            'pytree',
            'remat',
            'reshard',
            'retrace',
            'roofline',
            'shard-shape',
            'sync-cost',
            'transform-stack',
            'vmap-axes',
        ],
    ]);
    assert.deepEqual(state.serverCommandCalls, [{ command: 'xlalens.explain', args: ['calc/shard-shape'] }]);
    assert.equal(framedUrl(), 'http://127.0.0.1:8711/calc/shard-shape');
});

test('dismissing the calculator pick opens nothing', async () => {
    state.quickPick = () => undefined;
    await run('xlalens.openCalculator');
    assert.equal(state.panels.length, 0);
    assert.deepEqual(state.serverCommandCalls, []);
});

test('the panel page escapes the URL and lets nothing but the explainer origin load', () => {
    const html = explainerHtml('http://127.0.0.1:8711/calc/x?a="><script>&b=1');
    assert.match(html, /<iframe src="http:\/\/127\.0\.0\.1:8711\/calc\/x\?a=&quot;&gt;&lt;script&gt;&amp;b=1"/);
    assert.match(html, /default-src 'none'; frame-src http:\/\/127\.0\.0\.1:8711;/);
});
