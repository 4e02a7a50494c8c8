import { FakeLogChannel, resetState, state } from '../mock/vscode';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { beforeEach, test } from 'node:test';
import { LogOutputChannel, workspace } from 'vscode';
import { CancellationToken, ConfigurationParams } from 'vscode-languageclient/node';
import {
    ServerLaunchError,
    answerConfiguration,
    clientOptions,
    hasXlalensServer,
    serverLaunch,
} from '../../common/server';
import { readSettings } from '../../common/settings';
import { extensionDirectory } from '../helpers';

beforeEach(resetState);

const settings = () => readSettings(workspace.workspaceFolders?.[0]);

test('useBundled runs the bundled launcher with the interpreter', () => {
    const extension = extensionDirectory();
    state.settings['xlalens.importStrategy'] = 'useBundled';
    state.settings['xlalens.args'] = ['--log-level', 'debug'];
    const launch = serverLaunch(settings(), ['/usr/bin/python3', '-X', 'utf8'], extension, '/work/project');
    assert.deepEqual(launch, {
        command: '/usr/bin/python3',
        args: ['-X', 'utf8', path.join(extension, 'bundled', 'tool', 'lsp_server.py'), '--log-level', 'debug'],
        cwd: '/work/project',
    });
});

test('useBundled without bundled/libs says how to build it', () => {
    const extension = extensionDirectory({ bundled: false });
    state.settings['xlalens.importStrategy'] = 'useBundled';
    assert.throws(() => serverLaunch(settings(), ['python3'], extension, undefined), (error: unknown) => {
        assert.ok(error instanceof ServerLaunchError);
        assert.match(error.message, /bundled\/libs is missing \(build it with scripts\/bundle\.sh\)/);
        return true;
    });
});

test("fromEnvironment runs the environment's xlalens module", () => {
    state.settings['xlalens.importStrategy'] = 'fromEnvironment';
    const launch = serverLaunch(settings(), ['/envs/a/bin/python'], '/nowhere', undefined);
    assert.deepEqual(launch, { command: '/envs/a/bin/python', args: ['-m', 'xlalens.server'], cwd: undefined });
});

test('fromEnvironment, the default, falls back to the bundled xlalens when the environment has none', () => {
    const extension = extensionDirectory();
    const launch = serverLaunch(settings(), ['/envs/bare/bin/python'], extension, undefined, false);
    assert.deepEqual(launch.args, [path.join(extension, 'bundled', 'tool', 'lsp_server.py')]);
});

test('the environment probe finds the xlalens this interpreter has, and not a missing one', async () => {
    assert.equal(await hasXlalensServer([process.env.XLALENS_PYTHON ?? 'python3']), true);
    assert.equal(await hasXlalensServer(['/nonexistent/python']), false);
});

test('xlalens.path runs `<path> server` and ignores the interpreter', () => {
    state.settings['xlalens.path'] = ['/opt/bin/xlalens'];
    state.settings['xlalens.args'] = ['--log-level', 'info'];
    const launch = serverLaunch(settings(), [], '/nowhere', undefined);
    assert.deepEqual(launch, { command: '/opt/bin/xlalens', args: ['server', '--log-level', 'info'], cwd: undefined });
});

test('the client pulls diagnostics on change and save, and sends the server section at initialize', () => {
    state.settings['xlalens.ignore'] = ['JX106'];
    const options = clientOptions(settings(), new FakeLogChannel('xlalens') as unknown as LogOutputChannel);
    assert.deepEqual(options.diagnosticPullOptions, { onChange: true, onSave: true });
    assert.deepEqual((options.initializationOptions as { xlalens: { ignore: string[] } }).xlalens.ignore, ['JX106']);
    assert.deepEqual(
        options.documentSelector?.map((filter) => (filter as { scheme: string }).scheme),
        ['file', 'untitled', 'vscode-notebook-cell'],
    );
});

test('run: onSave pulls diagnostics only on save', () => {
    state.settings['xlalens.run'] = 'onSave';
    const options = clientOptions(settings(), new FakeLogChannel('xlalens') as unknown as LogOutputChannel);
    assert.deepEqual(options.diagnosticPullOptions, { onChange: false, onSave: true });
});

test("workspace/configuration for the xlalens section is answered with the server's key names", async () => {
    state.settings['xlalens.inlayHints.enable'] = false;
    state.settings['xlalens.trace.server'] = 'verbose';
    const params: ConfigurationParams = {
        items: [{ section: 'xlalens', scopeUri: 'file:///work/project' }, { section: 'python' }],
    };
    const raw = [{ inlayHints: { enable: false }, trace: { server: 'verbose' } }, { analysis: {} }];
    const answers = await answerConfiguration(params, {} as CancellationToken, () => raw);
    assert.ok(Array.isArray(answers));
    assert.equal((answers[0] as Record<string, unknown>).inlayHints, false);
    assert.ok(!('trace' in (answers[0] as object)));
    assert.deepEqual(answers[1], { analysis: {} });
});
