import { FakeLogChannel, installPythonExtension, resetState, state } from '../mock/vscode';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { ExtensionContext } from 'vscode';
import { activate, deactivate } from '../../extension';
import { extensionDirectory } from '../helpers';

/** The context VS Code passes, for an extension whose bundle has been built unless told otherwise. */
function extensionContext({ bundled = true } = {}): ExtensionContext {
    return { extensionPath: extensionDirectory({ bundled }), subscriptions: [] } as unknown as ExtensionContext;
}

beforeEach(resetState);
afterEach(deactivate);

test('activation registers the commands and starts the bundled server with the Python extension interpreter', async () => {
    installPythonExtension('/envs/selected/bin/python');
    const context = extensionContext();
    await activate(context);

    assert.deepEqual([...state.commands.keys()].sort(), [
        'xlalens.openCalculator',
        'xlalens.openExplainer',
        'xlalens.restart',
        'xlalens.showLogs',
    ]);
    assert.equal(state.clients.length, 1);
    const [client] = state.clients;
    assert.ok(client.running);
    assert.equal(client.id, 'xlalens');
    assert.deepEqual(client.serverOptions, {
        command: '/envs/selected/bin/python',
        args: [path.join(context.extensionPath, 'bundled', 'tool', 'lsp_server.py')],
        options: { cwd: '/work/project' },
    });
    assert.deepEqual(client.clientOptions.diagnosticPullOptions, { onChange: true, onSave: true });
});

test('the logs command shows the xlalens channel, which the server also writes to', async () => {
    await activate(extensionContext());
    await state.commands.get('xlalens.showLogs')?.();
    const [channel] = state.channels as [FakeLogChannel];
    assert.equal(channel.name, 'xlalens');
    assert.equal(channel.shown, 1);
    assert.equal(state.clients[0]?.clientOptions.outputChannel, channel);
    // python3 here has xlalens installed, so the default (fromEnvironment) runs that one.
    assert.match(channel.lines.join('\n'), /Starting the server: python3 -m xlalens\.server/);
});

test('a server that fails to start is logged, and the restart command tries again', async () => {
    state.startFailure = new Error('spawn python3 ENOENT');
    await activate(extensionContext());
    const [channel] = state.channels as [FakeLogChannel];
    assert.match(channel.lines.join('\n'), /error The server did not start: spawn python3 ENOENT/);

    state.startFailure = undefined;
    await state.commands.get('xlalens.restart')?.();
    assert.equal(state.clients.length, 2);
    assert.ok(state.clients[0]?.disposed);
    assert.ok(state.clients[1]?.running);
});

test('a client that cannot be created is logged, and later restarts still run', async () => {
    state.constructionFailure = new Error('no converter');
    await activate(extensionContext());
    const [channel] = state.channels as [FakeLogChannel];
    assert.match(channel.lines.join('\n'), /error The server did not start: no converter/);

    state.constructionFailure = undefined;
    await state.commands.get('xlalens.restart')?.();
    assert.ok(state.clients[0]?.running);
});

test('a missing bundle starts nothing and says how to build it', async () => {
    state.settings['xlalens.importStrategy'] = 'useBundled';
    await activate(extensionContext({ bundled: false }));
    assert.equal(state.clients.length, 0);
    assert.match(state.messages[0]?.text ?? '', /^xlalens: the language server cannot start: .*bundled\/libs is missing/);
});

test('showNotifications off keeps the failure in the log only', async () => {
    state.settings['xlalens.importStrategy'] = 'useBundled';
    state.settings['xlalens.showNotifications'] = 'off';
    await activate(extensionContext({ bundled: false }));
    assert.equal(state.clients.length, 0);
    assert.deepEqual(state.messages, []);
});

test('an unsupported interpreter starts nothing and says what to do', async () => {
    installPythonExtension('/usr/bin/python3.9', { major: 3, minor: 9, micro: 18 });
    await activate(extensionContext());
    assert.equal(state.clients.length, 0);
    assert.match(state.messages[0]?.text ?? '', /Python 3\.9; xlalens needs 3\.11 or newer/);
});

test('deactivation stops the server', async () => {
    await activate(extensionContext());
    await deactivate();
    assert.ok(state.clients[0]?.disposed);
});
