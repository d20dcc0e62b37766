// Every setting the extension contributes, with its type and default: the one place in the code its name is
// written. package.json declares the same list (test/unit/keys/settings.test.ts keeps the two equal); src/ui/settings.ts
// is the one module that reads and writes them. No `vscode` import.

/** One setting: its full name, what VS Code stores for it, and the value read when what is stored is not that. */
export interface Setting<T> {
  readonly key: string;
  readonly type: 'string' | 'number';
  readonly default: T;
  /** The values a string setting may take (package.json's `enum`). */
  readonly values?: readonly T[];
  /** Only the user's own settings count (package.json's `"scope": "application"`). */
  readonly scope?: 'application';
}

/** The value as this version reads it: the stored one when it has the setting's type (and is one of its values), else the default. */
export function readSetting<T>(setting: Setting<T>, stored: unknown): T {
  if (typeof stored !== setting.type) return setting.default;
  if (setting.type === 'number' && !Number.isFinite(stored)) return setting.default;
  const value = stored as T;
  return setting.values && !setting.values.includes(value) ? setting.default : value;
}

export type NotifyMode = 'all' | 'failures' | 'off';
/** What Download… does with a file already there with another size. */
export type DownloadExisting = 'ask' | 'overwrite' | 'keepBoth';

/** Each setting's value type. */
interface SettingTypes {
  apiEndpoint: string;
  refreshInterval: number;
  maxItemsPerRequest: number;
  notifyWhenWatchedTasksEnd: NotifyMode;
  downloadIfExists: DownloadExisting;
}

export type SettingName = keyof SettingTypes;
export type SettingValue<N extends SettingName> = SettingTypes[N];

export const SETTINGS: { readonly [N in SettingName]: Setting<SettingTypes[N]> } = {
  /** The platform in use (auth/session.ts reads the user's own value only). */
  apiEndpoint: { key: 'sevenbridges.apiEndpoint', type: 'string', default: 'https://api.sbgenomics.com/v2', scope: 'application' },
  /** Seconds between the Tasks view's automatic refreshes; 0 turns them off, less than 10 counts as 10 (tasks/refresher.ts). */
  refreshInterval: { key: 'sevenbridges.tasks.refreshInterval', type: 'number', default: 30 },
  /** Items per copy call, 1 to 100 (copy/request.ts clamps it). */
  maxItemsPerRequest: { key: 'sevenbridges.copy.maxItemsPerRequest', type: 'number', default: 100 },
  /** Which watched tasks' ends are announced. */
  notifyWhenWatchedTasksEnd: { key: 'sevenbridges.tasks.notifyWhenWatchedTasksEnd', type: 'string', default: 'all', values: ['all', 'failures', 'off'] },
  /** Download…, a file already there with another size: ask, overwrite it, or keep both (`name (1).ext`). */
  downloadIfExists: { key: 'sevenbridges.files.downloadIfExists', type: 'string', default: 'ask', values: ['ask', 'overwrite', 'keepBoth'] },
};
