/**
 * The `xlalens.*` settings: reading them, and the section the language server understands.
 */
import * as os from 'node:os';
import { ConfigurationChangeEvent, WorkspaceConfiguration, WorkspaceFolder, workspace } from 'vscode';
import { SERVER_ID } from './constants';

export type ImportStrategy = 'useBundled' | 'fromEnvironment';
export type RunMode = 'onType' | 'onSave';
export type ExplainerView = 'panel' | 'browser';
export type LogLevel = 'error' | 'warning' | 'info' | 'debug';
export type NotificationLevel = 'off' | 'onError' | 'onWarning' | 'always';

/** Every `xlalens.*` setting, with variables in launch settings already replaced. */
export interface ExtensionSettings {
    enable: boolean;
    logLevel: LogLevel;
    showNotifications: NotificationLevel;
    importStrategy: ImportStrategy;
    interpreter: string[];
    path: string[];
    args: string[];
    select: string[];
    extendSelect: string[];
    ignore: string[];
    severity: Record<string, string>;
    unsafeFixes: boolean;
    run: RunMode;
    inlayHints: boolean;
    explainerBaseUrl: string;
    openExplainerIn: ExplainerView;
    configuration: string;
    fixAll: boolean;
    codeActionFixViolation: boolean;
    codeActionDisableRuleComment: boolean;
}

/** Settings read when the server starts (`run` picks when diagnostics are pulled): a change restarts it. */
const LAUNCH_SETTINGS = ['enable', 'logLevel', 'importStrategy', 'interpreter', 'path', 'args', 'run'] as const;
/** Settings the running server takes from its `xlalens` section. */
const SERVER_SETTINGS = [
    'select',
    'extendSelect',
    'ignore',
    'severity',
    'unsafeFixes',
    'inlayHints',
    'explainerBaseUrl',
    'configuration',
    'fixAll',
    'codeAction',
] as const;

function oneOf<T extends string>(value: string, allowed: readonly T[], fallback: T): T {
    return (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** `${workspaceFolder}`, `${userHome}` and a leading `~`, as in the Python tools template. */
function replaceVariables(values: string[], folder: WorkspaceFolder | undefined): string[] {
    const home = os.homedir();
    return values.map((value) => {
        let result = value.replace(/\$\{userHome\}/g, home).replace(/^~(?=$|[\\/])/, home);
        if (folder !== undefined) {
            result = result.replace(/\$\{workspaceFolder\}/g, folder.uri.fsPath);
        }
        return result;
    });
}

function strings(config: WorkspaceConfiguration, key: string): string[] {
    const value = config.get<unknown>(key);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The settings that apply to `folder` (the workspace's when undefined). */
export function readSettings(folder: WorkspaceFolder | undefined): ExtensionSettings {
    const config = workspace.getConfiguration(SERVER_ID, folder);
    return {
        enable: config.get('enable', true),
        logLevel: oneOf(config.get('logLevel', ''), ['error', 'warning', 'info', 'debug'], 'warning'),
        showNotifications: oneOf(config.get('showNotifications', ''), ['off', 'onError', 'onWarning', 'always'], 'onError'),
        importStrategy: oneOf(config.get('importStrategy', ''), ['useBundled', 'fromEnvironment'], 'fromEnvironment'),
        interpreter: replaceVariables(strings(config, 'interpreter'), folder),
        path: replaceVariables(strings(config, 'path'), folder),
        args: replaceVariables(strings(config, 'args'), folder),
        select: strings(config, 'select'),
        extendSelect: strings(config, 'extendSelect'),
        ignore: strings(config, 'ignore'),
        severity: config.get<Record<string, string>>('severity', {}),
        unsafeFixes: config.get('unsafeFixes', false),
        run: oneOf(config.get('run', ''), ['onType', 'onSave'], 'onType'),
        inlayHints: config.get('inlayHints.enable', true),
        explainerBaseUrl: config.get('explainerBaseUrl', ''),
        openExplainerIn: oneOf(config.get('openExplainerIn', ''), ['panel', 'browser'], 'panel'),
        configuration: config.get('configuration', ''),
        fixAll: config.get('fixAll', true),
        codeActionFixViolation: config.get('codeAction.fixViolation.enable', true),
        codeActionDisableRuleComment: config.get('codeAction.disableRuleComment.enable', true),
    };
}

/**
 * The `xlalens` section as the server reads it (server/settings.py): its own key names only,
 * because it reports every key it does not know. Unset values are null, which keeps the project's
 * `[tool.xlalens]` choice; an empty `select` would otherwise select no rule at all.
 */
export function serverSection(settings: ExtensionSettings): Record<string, unknown> {
    return {
        select: settings.select.length > 0 ? settings.select : null,
        extendSelect: settings.extendSelect,
        ignore: settings.ignore,
        severity: settings.severity,
        unsafeFixes: settings.unsafeFixes,
        run: settings.run,
        inlayHints: settings.inlayHints,
        explainerBaseUrl: settings.explainerBaseUrl || null,
        configuration: settings.configuration || null,
        fixAll: settings.fixAll,
        codeAction: {
            fixViolation: { enable: settings.codeActionFixViolation },
            disableRuleComment: { enable: settings.codeActionDisableRuleComment },
        },
    };
}

function affectsAny(event: ConfigurationChangeEvent, keys: readonly string[]): boolean {
    return keys.some((key) => event.affectsConfiguration(`${SERVER_ID}.${key}`));
}

/** Whether a change touches a setting the server is started with. */
export function affectsLaunch(event: ConfigurationChangeEvent): boolean {
    return affectsAny(event, LAUNCH_SETTINGS);
}

/** Whether a change touches the section the running server reads. */
export function affectsServerSection(event: ConfigurationChangeEvent): boolean {
    return affectsAny(event, SERVER_SETTINGS);
}
