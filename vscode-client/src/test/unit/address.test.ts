import '../mock/vscode';
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { calculatorLink, reachableUrl } from '../../explainer/address';

test('calculatorLink finds the prefilled link in a hover and nothing else', () => {
    const hover = [
        '**Retrace calculator:** 3 calls → 3 traces',
        '[Open the live calculator with these numbers](http://127.0.0.1:8711/calc/retrace?calls=3)',
        '[Explainer: how this works](http://127.0.0.1:8711/jit-caching#jit-in-loops)',
    ].join('\n\n');
    assert.equal(calculatorLink(hover), 'http://127.0.0.1:8711/calc/retrace?calls=3');
    assert.equal(calculatorLink('[Explainer](http://127.0.0.1:8711/jit-caching)'), undefined);
});

test('calculatorLink keeps parentheses of the query and stops at the one closing the link', () => {
    const link = 'http://127.0.0.1:8711/calc/shard-shape?mesh=x:4,y:2&spec=P(x,None)';
    assert.equal(calculatorLink(`see [the calculator](${link}) and [more](http://x.org/calc/a)`), link);
});

test('reachableUrl keeps the path, query and fragment, and takes only the origin from the server', async () => {
    const url = await reachableUrl('http://localhost:8711/jit-caching?x=1#jit-in-loops', (_command, args) =>
        Promise.resolve({ url: `http://127.0.0.1:5555/${String(args[0])}` }),
    );
    assert.equal(url, 'http://127.0.0.1:5555/jit-caching?x=1#jit-in-loops');
});

test('reachableUrl refuses an answer without a URL', async () => {
    await assert.rejects(
        reachableUrl('http://127.0.0.1:8711/tracing', () => Promise.resolve({ error: 'nope' })),
        /xlalens\.explain answered \{"error":"nope"\}, not \{"url": \.\.\.\}/,
    );
});
