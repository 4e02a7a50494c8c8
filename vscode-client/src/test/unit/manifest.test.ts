import { resetState, state } from '../mock/vscode';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeEach, test } from 'node:test';
import { Command } from '../../common/constants';
import { readSettings } from '../../common/settings';

interface Manifest {
    main: string;
    activationEvents: string[];
    contributes: { commands: { command: string }[]; configuration: { properties: Record<string, unknown> } };
}

const manifest = JSON.parse(
    fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
) as Manifest;

beforeEach(resetState);

test('the extension activates on Python files and notebooks', () => {
    for (const event of ['onLanguage:python', 'onNotebook:jupyter-notebook', 'onNotebook:interactive']) {
        assert.ok(manifest.activationEvents.includes(event), event);
    }
    assert.equal(manifest.main, './dist/extension.js');
});

test('package.json contributes exactly the commands the code registers', () => {
    assert.deepEqual(
        manifest.contributes.commands.map((command) => command.command).sort(),
        Object.values(Command).sort(),
    );
});

test('every setting the code reads is declared, and every declared one is read', () => {
    readSettings(undefined);
    const declared = Object.keys(manifest.contributes.configuration.properties).sort();
    // vscode-languageclient reads `<client id>.trace.server` itself.
    assert.deepEqual([...state.settingsRead, 'xlalens.trace.server'].sort(), declared);
});
