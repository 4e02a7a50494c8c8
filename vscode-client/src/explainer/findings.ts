/**
 * The server's findings under the cursor, and the explainer link each one carries.
 */
import { Diagnostic, Position, Uri, languages, window } from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../common/constants';

/** A finding's rule code and its explainer section (the LSP `codeDescription.href`). */
export interface ExplainerLink {
    code: string;
    href: string;
}

/** The explainer link of an xlalens diagnostic; VS Code keeps `codeDescription` as `code.target`. */
export function explainerLink(diagnostic: Diagnostic): ExplainerLink | undefined {
    const code = diagnostic.code;
    if (diagnostic.source !== DIAGNOSTIC_SOURCE || typeof code !== 'object') {
        return undefined;
    }
    return { code: String(code.value), href: code.target.toString(true) };
}

/** The explainer links of the xlalens findings whose range holds `position`. */
export function explainerLinksAt(uri: Uri, position: Position): ExplainerLink[] {
    return languages
        .getDiagnostics(uri)
        .filter((diagnostic) => diagnostic.range.contains(position))
        .map(explainerLink)
        .filter((link): link is ExplainerLink => link !== undefined);
}

/** One link: the only one, or the one the user picks when findings overlap. */
export async function chooseLink(links: ExplainerLink[]): Promise<ExplainerLink | undefined> {
    if (links.length <= 1) {
        return links[0];
    }
    const picked = await window.showQuickPick(
        links.map((link) => ({ label: link.code, description: link.href, link })),
        { placeHolder: 'Which finding?' },
    );
    return picked?.link;
}
