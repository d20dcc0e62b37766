// The one module that reads and writes the extension's settings (src/keys/settings.ts lists them): every value
// comes back typed, the default in place of anything of the wrong type.
import * as vscode from 'vscode';
import { readSetting, SETTINGS, type SettingName, type SettingValue } from '../keys/settings';

const configuration = () => vscode.workspace.getConfiguration();

/** The setting's value: the user's, else the workspace's, else its default. */
export function setting<N extends SettingName>(name: N): SettingValue<N> {
  const s = SETTINGS[name];
  return readSetting(s, configuration().get(s.key));
}

/** The user's own value only, undefined when they set none (what a cloned repository's settings cannot change). */
export function userSetting<N extends SettingName>(name: N): SettingValue<N> | undefined {
  const s = SETTINGS[name];
  const value = configuration().inspect(s.key)?.globalValue;
  return value === undefined ? undefined : readSetting(s, value);
}

/** Sets the user's value. */
export function updateUserSetting<N extends SettingName>(name: N, value: SettingValue<N>): Thenable<void> {
  return configuration().update(SETTINGS[name].key, value, vscode.ConfigurationTarget.Global);
}

/** Calls `listener` whenever one of the settings named changes. */
export function onSettingChange(names: readonly SettingName[], listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (names.some((name) => e.affectsConfiguration(SETTINGS[name].key))) listener();
  });
}
