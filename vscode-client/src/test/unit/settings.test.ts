import { changeSettings, resetState, state } from '../mock/vscode';
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { beforeEach, test } from 'node:test';
import { workspace } from 'vscode';
import { affectsLaunch, affectsServerSection, readSettings, serverSection } from '../../common/settings';

beforeEach(resetState);

const folder = () => workspace.workspaceFolders?.[0];

test('unset settings read as their defaults', () => {
    const settings = readSettings(folder());
    assert.equal(settings.importStrategy, 'fromEnvironment');
    assert.deepEqual(settings.interpreter, []);
    assert.equal(settings.run, 'onType');
    assert.equal(settings.inlayHints, true);
    assert.equal(settings.openExplainerIn, 'panel');
});

test('launch settings have ${workspaceFolder}, ${userHome} and ~ replaced', () => {
    state.settings['xlalens.interpreter'] = ['${workspaceFolder}/.venv/bin/python', '-X', 'utf8'];
    state.settings['xlalens.path'] = ['~/bin/xlalens'];
    state.settings['xlalens.args'] = ['--log-file', '${userHome}/xlalens.log'];
    const settings = readSettings(folder());
    assert.deepEqual(settings.interpreter, ['/work/project/.venv/bin/python', '-X', 'utf8']);
    assert.deepEqual(settings.path, [`${os.homedir()}/bin/xlalens`]);
    assert.deepEqual(settings.args, ['--log-file', `${os.homedir()}/xlalens.log`]);
});

test('values outside an enum fall back to its default', () => {
    state.settings['xlalens.importStrategy'] = 'fromNowhere';
    state.settings['xlalens.run'] = 'sometimes';
    const settings = readSettings(folder());
    assert.equal(settings.importStrategy, 'fromEnvironment');
    assert.equal(settings.run, 'onType');
});

test('the server section uses the server key names and leaves the extension-only settings out', () => {
    Object.assign(state.settings, {
        'xlalens.importStrategy': 'fromEnvironment',
        'xlalens.interpreter': ['/usr/bin/python3'],
        'xlalens.trace.server': 'verbose',
        'xlalens.openExplainerIn': 'browser',
        'xlalens.ignore': ['JX106'],
        'xlalens.severity': { JX1: 'error' },
        'xlalens.unsafeFixes': true,
        'xlalens.inlayHints.enable': false,
        'xlalens.explainerBaseUrl': 'https://docs.example.org/xlalens',
    });
    assert.deepEqual(serverSection(readSettings(folder())), {
        select: null,
        extendSelect: [],
        ignore: ['JX106'],
        severity: { JX1: 'error' },
        unsafeFixes: true,
        run: 'onType',
        inlayHints: false,
        explainerBaseUrl: 'https://docs.example.org/xlalens',
        configuration: null,
        fixAll: true,
        codeAction: { fixViolation: { enable: true }, disableRuleComment: { enable: true } },
    });
});

test("fixAll and codeAction.*.enable reach the server under ruff's key names", () => {
    Object.assign(state.settings, {
        'xlalens.fixAll': false,
        'xlalens.codeAction.disableRuleComment.enable': false,
    });
    const section = serverSection(readSettings(folder()));
    assert.equal(section.fixAll, false);
    assert.deepEqual(section.codeAction, { fixViolation: { enable: true }, disableRuleComment: { enable: false } });
});

test('an empty select keeps the project selection, a non-empty one replaces it', () => {
    assert.equal(serverSection(readSettings(folder())).select, null);
    state.settings['xlalens.select'] = ['JX1'];
    assert.deepEqual(serverSection(readSettings(folder())).select, ['JX1']);
});

test('changes are told apart: launch settings restart, section settings are sent', async () => {
    const seen: [boolean, boolean][] = [];
    state.configurationChanged.event((event) => seen.push([affectsLaunch(event), affectsServerSection(event)]));
    await changeSettings({ 'xlalens.interpreter': ['/usr/bin/python3'] });
    await changeSettings({ 'xlalens.inlayHints.enable': false });
    await changeSettings({ 'xlalens.openExplainerIn': 'browser' });
    assert.deepEqual(seen, [
        [true, false],
        [false, true],
        [false, false],
    ]);
});
