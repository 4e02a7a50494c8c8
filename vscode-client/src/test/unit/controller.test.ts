import { FakeLogChannel, changeSettings, installPythonExtension, resetState, state } from '../mock/vscode';
import * as assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LogOutputChannel, workspace } from 'vscode';
import { LanguageServerController } from '../../common/controller';
import { extensionDirectory, waitFor } from '../helpers';

const RESTART_DELAY_MS = 20;
/** Long enough for a restart that should not happen to have happened. */
const QUIET_MS = RESTART_DELAY_MS * 5;
let controller: LanguageServerController;

beforeEach(async () => {
    resetState();
    const log = new FakeLogChannel('xlalens') as unknown as LogOutputChannel;
    controller = new LanguageServerController(extensionDirectory(), log, RESTART_DELAY_MS);
    workspace.onDidChangeConfiguration((event) => controller.onDidChangeConfiguration(event));
    await controller.restart();
});

afterEach(() => controller.stop());

test('a change of interpreter restarts the server with it', async () => {
    await changeSettings({ 'xlalens.interpreter': ['/opt/python3.13'] });
    await waitFor(() => state.clients[1]?.running ?? false);
    assert.equal(state.clients.length, 2);
    assert.ok(state.clients[0]?.disposed);
    assert.equal(state.clients[1]?.serverOptions.command, '/opt/python3.13');
    assert.ok(state.clients[1]?.running);
});

test('a burst of launch changes restarts the server once', async () => {
    await changeSettings({ 'xlalens.importStrategy': 'useBundled' });
    await changeSettings({ 'xlalens.args': ['--log-level', 'debug'] });
    await changeSettings({ 'xlalens.interpreter': ['/opt/python3.13'] });
    await waitFor(() => state.clients[1]?.running ?? false);
    assert.equal(state.clients.length, 2);
    const args = state.clients[1]?.serverOptions.args ?? [];
    assert.match(args[0] ?? '', /lsp_server\.py$/);
    assert.deepEqual(args.slice(1), ['--log-level', 'debug']);
});

test('xlalens.enable off stops the server and starts none; on again starts one', async () => {
    await changeSettings({ 'xlalens.enable': false });
    await waitFor(() => state.clients[0]?.disposed ?? false);
    await sleep(QUIET_MS);
    assert.equal(state.clients.length, 1);
    await changeSettings({ 'xlalens.enable': true });
    await waitFor(() => state.clients[1]?.running ?? false);
    assert.equal(state.clients.length, 2);
});

test('xlalens.logLevel is passed to the server, the default adds nothing', async () => {
    assert.ok(!(state.clients[0]?.serverOptions.args ?? []).includes('--log-level'));
    await changeSettings({ 'xlalens.logLevel': 'debug' });
    await waitFor(() => state.clients[1]?.running ?? false);
    const args = state.clients[1]?.serverOptions.args ?? [];
    assert.deepEqual(args.slice(-2), ['--log-level', 'debug']);
});

test('a change of rule selection is sent to the running server without a restart', async () => {
    await changeSettings({ 'xlalens.select': ['JX1'] });
    await sleep(QUIET_MS);
    assert.equal(state.clients.length, 1);
    assert.deepEqual(state.clients[0]?.notifications, [
        { method: 'workspace/didChangeConfiguration', params: { settings: null } },
    ]);
});

test('changes outside xlalens neither restart nor notify', async () => {
    await changeSettings({ 'python.analysis.typeCheckingMode': 'strict' });
    await sleep(QUIET_MS);
    assert.equal(state.clients.length, 1);
    assert.deepEqual(state.clients[0]?.notifications, []);
});

test("a new Python extension interpreter restarts the server, unless xlalens.interpreter pins one", async () => {
    const python = installPythonExtension('/envs/b/bin/python');
    controller.onDidChangePythonInterpreter();
    await waitFor(() => state.clients[1]?.running ?? false);
    assert.equal(state.clients[1]?.serverOptions.command, '/envs/b/bin/python');

    const started = state.clients.length;
    state.settings['xlalens.interpreter'] = ['/opt/python3.13'];
    controller.onDidChangePythonInterpreter();
    await sleep(QUIET_MS);
    assert.equal(state.clients.length, started);
    assert.deepEqual(python.resources, ['file:///work/project']);
});

test('restarts queue: the last one leaves exactly one running server', async () => {
    await Promise.all([controller.restart(), controller.restart(), controller.restart()]);
    const running = state.clients.filter((client) => client.running);
    assert.equal(running.length, 1);
    assert.equal(running[0], state.clients.at(-1));
});

test('server commands go to the running client as workspace/executeCommand', async () => {
    state.answerServerCommand = (command, args) => ({ url: `http://127.0.0.1:8711/${command}/${String(args[0])}` });
    const answer = await controller.executeServerCommand('xlalens.explain', ['JX101']);
    assert.deepEqual(answer, { url: 'http://127.0.0.1:8711/xlalens.explain/JX101' });
    await controller.stop();
    await assert.rejects(controller.executeServerCommand('xlalens.explain', ['JX101']), /not running/);
});
