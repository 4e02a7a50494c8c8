/**
 * The explainer panel: one webview beside the editor that shows explainer and calculator pages.
 */
import { Disposable, Uri, ViewColumn, WebviewPanel, env, window } from 'vscode';

const VIEW_TYPE = 'xlalens.explainer';

function escapeAttribute(text: string): string {
    return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A page that frames `url` and may load nothing but frames from its origin. */
export function explainerHtml(url: string): string {
    const origin = new URL(url).origin;
    return `<!DOCTYPE html>
<html>
<head>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; frame-src ${origin}; style-src 'unsafe-inline'">
<style>html, body, iframe { margin: 0; padding: 0; width: 100%; height: 100%; border: 0; overflow: hidden; }</style>
</head>
<body><iframe src="${escapeAttribute(url)}" title="xlalens explainer"></iframe></body>
</html>`;
}

export class ExplainerPanel implements Disposable {
    private panel: WebviewPanel | undefined;

    /** Show `url` in the panel, creating it or bringing it back beside the editor. */
    async show(url: string): Promise<void> {
        // In remote windows the page's port has to be forwarded; only the origin changes.
        const link = new URL(url);
        const external = new URL((await env.asExternalUri(Uri.parse(link.origin))).toString(true));
        link.protocol = external.protocol;
        link.host = external.host;
        if (this.panel === undefined) {
            this.panel = window.createWebviewPanel(
                VIEW_TYPE,
                'xlalens explainer',
                { viewColumn: ViewColumn.Beside, preserveFocus: true },
                // The webview's sandbox extends to the frame, and the calculators run scripts;
                // kept alive when hidden so that a calculator keeps what was typed into it.
                { enableScripts: true, retainContextWhenHidden: true },
            );
            this.panel.onDidDispose(() => {
                this.panel = undefined;
            });
        }
        this.panel.webview.html = explainerHtml(link.toString());
        this.panel.reveal(ViewColumn.Beside, true);
    }

    dispose(): void {
        this.panel?.dispose();
    }
}
