// What the task document needs from the start (dist/main.js), kept tiny: a task document opened loads the rest
// (taskDocumentLanguage.ts, in dist/features.js, with the yaml package), which registers the language features
// (every one of them acts on an open task document, so none is asked for before).
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { Later } from '../util/later';
import type { TaskDocumentLanguage } from './taskDocumentLanguage';
import { isTaskDocumentName } from './taskDocumentName';

export interface TaskDocumentsOnFirstUse {
  TaskDocumentLanguage: typeof TaskDocumentLanguage;
}

/** Registers the stand-ins; returns how the one TaskDocumentLanguage is made from what was loaded (once). */
export function registerTaskDocuments(services: Services, load: Later<TaskDocumentsOnFirstUse>): (loaded: TaskDocumentsOnFirstUse) => TaskDocumentLanguage {
  let made: TaskDocumentLanguage | undefined;
  const make = (loaded: TaskDocumentsOnFirstUse): TaskDocumentLanguage => {
    if (!made) {
      made = new loaded.TaskDocumentLanguage(services);
      services.context.subscriptions.push(made);
    }
    return made;
  };
  const language = async () => make(await load());
  const check = (document: vscode.TextDocument) => {
    if (!isTaskDocumentName(document.uri.path)) return;
    void language()
      .then((l) => l.check(document))
      .catch((error: unknown) => services.log.warn(`Task document: check failed: ${String(error)}`));
  };
  services.context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(check));
  vscode.workspace.textDocuments.forEach(check);
  return make;
}
