/**
 * Where explainer and calculator pages are served, as the language server reports it.
 */
import { ServerCommand } from '../common/constants';

/** Runs a language-server command (`workspace/executeCommand`) and resolves to its answer. */
export type RunServerCommand = (command: string, args: unknown[]) => Promise<unknown>;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function urlOf(answer: unknown, command: string): string {
    if (typeof answer === 'object' && answer !== null && 'url' in answer && typeof answer.url === 'string') {
        return answer.url;
    }
    throw new Error(`${command} answered ${JSON.stringify(answer)}, not {"url": ...}`);
}

/**
 * `href`, made ready to open. A loopback link points at the local explainer server, which the
 * language server starts on first use of `xlalens.explain`; its answer also says where the server
 * listens, which is another port than the link's when 8711 was taken, so the link takes that origin.
 */
export async function reachableUrl(href: string, run: RunServerCommand): Promise<string> {
    const link = new URL(href);
    if (!LOOPBACK_HOSTS.has(link.hostname)) {
        return href;
    }
    // The command takes `page#section`: the link's own path names the page it wants served.
    const topic = decodeURIComponent(link.pathname.replace(/^\//, '') + link.hash);
    const served = new URL(urlOf(await run(ServerCommand.explain, [topic]), ServerCommand.explain));
    link.protocol = served.protocol;
    link.host = served.host;
    return link.toString();
}

/**
 * A calculator's page, `calc/<name>` on the explainer site, at the address the server links to
 * (starting the local explainer server if that is where it links).
 */
export async function calculatorUrl(name: string, run: RunServerCommand): Promise<string> {
    return urlOf(await run(ServerCommand.explain, [`calc/${name}`]), ServerCommand.explain);
}

/** A Markdown link's destination: up to the `)` that closes the link, nested pairs kept (CommonMark). */
function linkDestination(rest: string): string {
    let depth = 0;
    for (let index = 0; index < rest.length; index++) {
        if (rest[index] === '(') {
            depth += 1;
        } else if (rest[index] === ')') {
            if (depth === 0) {
                return rest.slice(0, index);
            }
            depth -= 1;
        }
    }
    return rest;
}

/**
 * The prefilled calculator link in a finding's hover (server/hover.py), if it has one. Its query
 * may hold parentheses (`spec=P(x,None)`), which end a simpler pattern too early.
 */
export function calculatorLink(hoverMarkdown: string): string | undefined {
    for (const [, rest] of hoverMarkdown.matchAll(/\]\((https?:\/\/\S+)/g)) {
        const destination = linkDestination(rest);
        if (/^\/(?:.*\/)?calc\/[^/]+$/.test(new URL(destination).pathname)) {
            return destination;
        }
    }
    return undefined;
}
