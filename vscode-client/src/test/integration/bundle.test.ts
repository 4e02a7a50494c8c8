/**
 * The shipped bundle (dist/extension.js, built by `npm run bundle:extension`) loads with the
 * `vscode` module supplied from outside, as the extension host supplies it, and exports the
 * lifecycle functions VS Code calls.
 */
import '../mock/vscode';
import * as assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { test } from 'node:test';

const BUNDLE = path.resolve(__dirname, '..', '..', '..', 'dist', 'extension.js');

test('the bundle loads and exports activate and deactivate', () => {
    const bundle = createRequire(__filename)(BUNDLE) as Record<string, unknown>;
    assert.equal(typeof bundle.activate, 'function');
    assert.equal(typeof bundle.deactivate, 'function');
});
