/**
 * "Open Explainer" and "Open Calculator": pages about the finding under the cursor.
 */
import { Disposable, Hover, LogOutputChannel, MarkdownString, Position, Uri, commands, env, window } from 'vscode';
import { Command } from '../common/constants';
import { LanguageServerController } from '../common/controller';
import { describeError } from '../common/logging';
import { readSettings } from '../common/settings';
import { RunServerCommand, calculatorLink, calculatorUrl, reachableUrl } from './address';
import { CALCULATORS } from './calculators';
import { chooseLink, explainerLinksAt } from './findings';
import { ExplainerPanel } from './panel';

/** Where the settings say: the panel, or the external browser. */
async function showPage(url: string, panel: ExplainerPanel): Promise<void> {
    if (readSettings(undefined).openExplainerIn === 'browser') {
        await env.openExternal(Uri.parse(url));
    } else {
        await panel.show(url);
    }
}

/** The explainer section of the finding under the cursor. */
export async function openExplainer(run: RunServerCommand, panel: ExplainerPanel): Promise<void> {
    const editor = window.activeTextEditor;
    const links = editor ? explainerLinksAt(editor.document.uri, editor.selection.active) : [];
    if (links.length === 0) {
        void window.showInformationMessage('xlalens: no finding under the cursor.');
        return;
    }
    const link = await chooseLink(links);
    if (link !== undefined) {
        await showPage(await reachableUrl(link.href, run), panel);
    }
}

/** A hover's Markdown (the server answers Markdown, which VS Code turns into MarkdownString). */
function hoverMarkdown(hover: Hover): string {
    return hover.contents
        .filter((part): part is MarkdownString => part instanceof MarkdownString)
        .map((part) => part.value)
        .join('\n');
}

/** The calculator link, prefilled with the values in the code, of the hover at `position`. */
async function prefilledCalculatorAt(uri: Uri, position: Position): Promise<string | undefined> {
    const hovers = await commands.executeCommand<Hover[] | undefined>('vscode.executeHoverProvider', uri, position);
    return (hovers ?? []).map((hover) => calculatorLink(hoverMarkdown(hover))).find((link) => link !== undefined);
}

async function pickCalculator(run: RunServerCommand): Promise<string | undefined> {
    const picked = await window.showQuickPick(
        CALCULATORS.map((calculator) => ({ label: calculator.name, detail: calculator.description })),
        { placeHolder: 'Which calculator?' },
    );
    return picked === undefined ? undefined : calculatorUrl(picked.label, run);
}

/**
 * The calculator of the finding under the cursor, prefilled with the values found in the code;
 * elsewhere, the calculator the user picks.
 */
export async function openCalculator(run: RunServerCommand, panel: ExplainerPanel): Promise<void> {
    const editor = window.activeTextEditor;
    const prefilled = editor ? await prefilledCalculatorAt(editor.document.uri, editor.selection.active) : undefined;
    const url = prefilled !== undefined ? await reachableUrl(prefilled, run) : await pickCalculator(run);
    if (url !== undefined) {
        await showPage(url, panel);
    }
}

export function registerExplainerCommands(
    controller: LanguageServerController,
    panel: ExplainerPanel,
    log: LogOutputChannel,
): Disposable[] {
    const run: RunServerCommand = (command, args) => controller.executeServerCommand(command, args);
    const reportFailure = (error: unknown): void => {
        log.error(describeError(error));
        void window.showErrorMessage(`xlalens: ${describeError(error)}`);
    };
    return [
        commands.registerCommand(Command.openExplainer, () => openExplainer(run, panel).catch(reportFailure)),
        commands.registerCommand(Command.openCalculator, () => openCalculator(run, panel).catch(reportFailure)),
    ];
}
