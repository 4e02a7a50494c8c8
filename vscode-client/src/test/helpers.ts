/**
 * Helpers shared by the tests.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A new empty directory, removed when the test process exits. */
export function temporaryDirectory(prefix: string): string {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    process.on('exit', () => {
        fs.rmSync(directory, { recursive: true, force: true });
    });
    return directory;
}

/** A directory laid out like the installed extension, with `bundled/libs` unless told otherwise. */
export function extensionDirectory({ bundled = true } = {}): string {
    const directory = temporaryDirectory('xlalens-extension-');
    if (bundled) {
        fs.mkdirSync(path.join(directory, 'bundled', 'libs'), { recursive: true });
    }
    return directory;
}

/** Resolve once `condition` holds; fail after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
        if (Date.now() > deadline) {
            throw new Error(`still false after ${timeoutMs} ms: ${condition.toString()}`);
        }
        await sleep(5);
    }
}
