import { FakeLogChannel, installPythonExtension, resetState } from '../mock/vscode';
import * as assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { LogOutputChannel, workspace } from 'vscode';
import { UnsupportedInterpreterError, findInterpreter, onDidChangePythonInterpreter } from '../../common/python';

beforeEach(resetState);

const log = () => new FakeLogChannel('test') as unknown as LogOutputChannel;
const folder = () => workspace.workspaceFolders?.[0];

test('the xlalens.interpreter setting wins over the Python extension', async () => {
    const python = installPythonExtension('/envs/selected/bin/python');
    const found = await findInterpreter(['/opt/python3.12', '-I'], folder(), log());
    assert.deepEqual(found, { command: ['/opt/python3.12', '-I'], source: 'setting' });
    assert.deepEqual(python.resources, []);
});

test("without the setting, the Python extension's interpreter for the workspace folder", async () => {
    const python = installPythonExtension('/envs/selected/bin/python');
    const found = await findInterpreter([], folder(), log());
    assert.deepEqual(found, { command: ['/envs/selected/bin/python'], source: 'python-extension' });
    assert.deepEqual(python.resources, ['file:///work/project']);
});

test('without the Python extension, python3 from PATH', async () => {
    const channel = new FakeLogChannel('test');
    const found = await findInterpreter([], folder(), channel as unknown as LogOutputChannel);
    assert.deepEqual(found, { command: ['python3'], source: 'path' });
    assert.match(channel.lines.join('\n'), /Python extension unavailable/);
});

test('when the Python extension has no interpreter selected, python3 from PATH', async () => {
    installPythonExtension(undefined);
    assert.deepEqual(await findInterpreter([], folder(), log()), { command: ['python3'], source: 'path' });
});

test("a Python older than 3.11 from the Python extension is refused, not replaced", async () => {
    installPythonExtension('/usr/bin/python3.10', { major: 3, minor: 10, micro: 12 });
    await assert.rejects(findInterpreter([], folder(), log()), (error: unknown) => {
        assert.ok(error instanceof UnsupportedInterpreterError);
        assert.match(error.message, /\/usr\/bin\/python3\.10 is Python 3\.10; xlalens needs 3\.11 or newer/);
        return true;
    });
});

test("the interpreter-change listener follows the Python extension's event", async () => {
    const python = installPythonExtension('/envs/a/bin/python');
    let calls = 0;
    const subscription = await onDidChangePythonInterpreter(() => (calls += 1), log());
    await python.interpreterChanged.fire({});
    subscription.dispose();
    await python.interpreterChanged.fire({});
    assert.equal(calls, 1);
});

test('without the Python extension, the interpreter-change listener is never called', async () => {
    const subscription = await onDidChangePythonInterpreter(() => assert.fail('called'), log());
    subscription.dispose();
});
