// The one place that sets context keys (src/keys/context.ts lists them); models report, register functions call this.
import * as vscode from 'vscode';
import type { ContextKey, ContextValues } from '../keys/context';

export function setContextKey<K extends ContextKey>(key: K, value: ContextValues[K]): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}
