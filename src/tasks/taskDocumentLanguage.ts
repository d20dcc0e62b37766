// The task document's language features (loaded on first use, dist/authoring.js): problems as you type (the
// document's own, then against its app's inputs and the files it names), completion, hovers, the links at its top
// (Run Task, Save as Draft) and files dropped from Projects & Files. The rules are the models'
// (taskDocument.ts, taskValidation.ts, taskDocumentAssist.ts, taskDocumentFacts.ts); here they meet the editor.
import * as vscode from 'vscode';
import { describeError } from '../api/errors';
import { isAppId } from '../api/ids';
import { COMMANDS } from '../keys/commands';
import { WRITE_KINDS } from '../keys/writes';
import { FILES_DRAG_MIME } from '../keys/views';
import type { Services } from '../services';
import { completionAt, cursorPlace, dropText, hoverTarget, inputHover, type SuggestionKind } from './taskDocumentAssist';
import type { CreateTaskPayload, DraftState } from './taskWrites';
import { taskRequest } from './taskRequest';
import { TaskDocumentFacts, type AppFacts } from './taskDocumentFacts';
import { parseTaskDocument, type DocumentProblem, type ParsedTaskDocument } from './taskDocument';
import { isTaskDocumentName, TASK_DOCUMENT_GLOB } from './taskDocumentName';
import { validateTaskDocument } from './taskValidation';

/** How long typing pauses before the document is checked again. */
const CHECK_DELAY_MS = 300;

/** The links at the top of a task document, and the titles of what they do. */
export const runTaskWords = (): string => vscode.l10n.t({ message: 'Run Task', comment: ['A link at the top of a task document'] });
export const saveAsDraftWords = (): string => vscode.l10n.t({ message: 'Save as Draft', comment: ['A link at the top of a task document'] });

/** A suggestion's icon (read when asked: the module loads before VS Code's enums are needed). */
function completionKind(kind: SuggestionKind): vscode.CompletionItemKind {
  const kinds: Record<SuggestionKind, vscode.CompletionItemKind> = {
    field: vscode.CompletionItemKind.Property,
    input: vscode.CompletionItemKind.Field,
    value: vscode.CompletionItemKind.EnumMember,
    file: vscode.CompletionItemKind.File,
    folder: vscode.CompletionItemKind.Folder,
  };
  return kinds[kind];
}

/** A document read, with its app's inputs when they could be read. */
export interface ReadDocument {
  parsed: ParsedTaskDocument;
  app: AppFacts | undefined;
}

export class TaskDocumentLanguage implements vscode.Disposable {
  readonly facts: TaskDocumentFacts;
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('sevenbridges-task');
  /** The platform's own problems of a document's last Run Task or Save as Draft, kept until it is edited. */
  private readonly platform = new Map<string, DocumentProblem[]>();
  private readonly pending = new Map<string, unknown>();
  /** A draft's state when its document was opened or last saved: a save over a draft changed since asks first. */
  private readonly drafts = new Map<string, DraftState>();
  private readonly subscriptions: vscode.Disposable[] = [];

  /** Made once, when a task document is first open or a command first runs; disposed with the extension. */
  constructor(private readonly services: Services) {
    services.context.subscriptions.push(this);
    this.facts = new TaskDocumentFacts(
      { apps: services.client.apps, files: { get: (id) => services.client.files.get(id), list: (where, page) => services.client.files.list(where, page) } },
      () => this.checkAll(),
    );
    const selector: vscode.DocumentSelector = [{ language: 'yaml', pattern: TASK_DOCUMENT_GLOB }];
    this.subscriptions.push(
      vscode.languages.registerCompletionItemProvider(
        selector,
        { provideCompletionItems: (d, p, _t, c) => this.complete(d, p, c.triggerKind === vscode.CompletionTriggerKind.TriggerForIncompleteCompletions) },
        ':',
        ' ',
        '-',
      ),
      vscode.languages.registerHoverProvider(selector, { provideHover: (d, p) => this.hover(d, p) }),
      vscode.languages.registerCodeLensProvider(selector, { provideCodeLenses: (d) => this.lenses(d) }),
      vscode.languages.registerDocumentDropEditProvider(selector, { provideDocumentDropEdits: (d, p, t) => this.drop(d, p, t) }),
      this.diagnostics,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (!isTaskDocument(e.document) || !e.contentChanges.length) return;
        this.platform.delete(e.document.uri.toString());
        this.checkSoon(e.document);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.diagnostics.delete(d.uri);
        this.platform.delete(d.uri.toString());
        this.drafts.delete(d.uri.toString());
      }),
      services.session.onDidChange(() => {
        this.facts.clear();
        this.checkAll();
      }),
    );
  }

  /** Reads a document and its app. */
  async read(document: vscode.TextDocument): Promise<ReadDocument> {
    const parsed = await parseTaskDocument(document.getText());
    const app = parsed.document.app !== undefined && isAppId(parsed.document.app) ? await this.facts.app(parsed.document.app) : undefined;
    return { parsed, app };
  }

  /** Checks a document now and shows its problems; returns them. */
  async check(document: vscode.TextDocument): Promise<DocumentProblem[]> {
    const { parsed, app } = await this.read(document);
    const problems = validateTaskDocument(parsed, app && 'inputs' in app ? app.inputs : undefined, this.facts.lookup);
    if (app && 'error' in app) {
      problems.push({ span: parsed.fields.app?.value ?? { start: 0, end: 0 }, message: vscode.l10n.t('The app could not be read: {0}', describeError(app.error)), severity: 'error' });
    }
    const shown = [...problems, ...(this.platform.get(document.uri.toString()) ?? [])];
    this.diagnostics.set(document.uri, shown.map((p) => toDiagnostic(document, p)));
    if (!problems.some((p) => p.severity === 'error')) {
      void this.readAhead(parsed, app).catch((error: unknown) => this.services.log.warn(`Task document: read ahead failed: ${String(error)}`));
    }
    return problems;
  }

  draftOpened(uri: vscode.Uri, state: DraftState): void {
    this.drafts.set(uri.toString(), state);
  }

  draftAsOpened(uri: vscode.Uri): DraftState | undefined {
    return this.drafts.get(uri.toString());
  }

  /** The platform's validation problems of the task the document made, on the lines of the inputs they name. */
  showPlatformProblems(document: vscode.TextDocument, problems: DocumentProblem[]): void {
    this.platform.set(document.uri.toString(), problems);
    void this.check(document);
  }

  async complete(document: vscode.TextDocument, position: vscode.Position, again: boolean): Promise<vscode.CompletionList> {
    const text = document.getText();
    const offset = document.offsetAt(position);
    const place = cursorPlace(text, offset);
    if (place.at === 'nowhere') return new vscode.CompletionList([]);
    const { parsed, app } = await this.read(document);
    const { suggestions, complete } = await completionAt(this.facts, place, parsed, app && 'inputs' in app ? app.inputs : undefined, again);
    const range = new vscode.Range(document.positionAt(offset - place.typed.length), position);
    const items = suggestions.map((s, index) => {
      const item = new vscode.CompletionItem(s.label, completionKind(s.kind));
      item.insertText = s.insert;
      item.filterText = s.filter ?? s.label;
      item.detail = s.detail;
      item.range = range;
      item.sortText = String(index).padStart(6, '0');
      return item;
    });
    // More files on the platform than held: asked again as the person types, a page more each time.
    return new vscode.CompletionList(items, !complete);
  }

  async hover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const { parsed, app } = await this.read(document);
    const target = hoverTarget(parsed, document.offsetAt(position));
    if (!target || !app || !('inputs' in app)) return undefined;
    const input = app.inputs.find((i) => i.id === target.input);
    if (!input) return undefined;
    if (typeof target.value === 'string' && target.value.length > 0) {
      const name = this.facts.nameOf(target.value);
      if (name !== undefined) return new vscode.Hover(new vscode.MarkdownString().appendText(name));
    }
    return new vscode.Hover(new vscode.MarkdownString(inputHover(input)));
  }

  lenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    const uri = document.uri;
    return [
      new vscode.CodeLens(top, { title: `$(play) ${runTaskWords()}`, command: COMMANDS.runTaskDocument, arguments: [uri] }),
      new vscode.CodeLens(top, { title: saveAsDraftWords(), command: COMMANDS.saveTaskDocumentDraft, arguments: [uri] }),
    ];
  }

  /**
   * A document checked with no problem is one Run Task would send (checked when opened and after edits): what the
   * new task's write reads before it is sent (the project's newest tasks, to find the task if the answer is lost) is
   * read now, so that Run Task within the minute waits for its own request only (the identity reads again at most
   * every 30 s). Not for a draft's document (a save changes that task) nor without a project or an account.
   */
  private async readAhead(parsed: ParsedTaskDocument, app: AppFacts | undefined): Promise<void> {
    if (parsed.document.draft || !parsed.document.project) return;
    const account = await this.services.account();
    if (!account) return;
    const payload: CreateTaskPayload = { task: taskRequest(parsed.document, app && 'inputs' in app ? app.inputs : []), run: true };
    await this.services.outbox.prepare(WRITE_KINDS.createTask, payload, account);
  }

  /** Files dragged from Projects & Files: into the input under the cursor (appended to a list of files). */
  async drop(document: vscode.TextDocument, position: vscode.Position, dataTransfer: vscode.DataTransfer): Promise<vscode.DocumentDropEdit | undefined> {
    const records = droppedRecords(dataTransfer.get(FILES_DRAG_MIME)?.value);
    const ids = records.length ? records : ((await dataTransfer.get('text/plain')?.asString()) ?? '').split(/\r?\n/).filter(Boolean).map((id) => ({ id, name: this.facts.nameOf(id) ?? '' }));
    if (!ids.length) return undefined;
    this.facts.learn(records.map((r) => ({ href: '', ...r })), false);
    const { app } = await this.read(document);
    const placed = dropText(document.getText(), document.offsetAt(position), ids, app && 'inputs' in app ? app.inputs : undefined);
    if (!placed) return undefined;
    const edit = new vscode.DocumentDropEdit('');
    edit.additionalEdit = new vscode.WorkspaceEdit();
    edit.additionalEdit.replace(document.uri, new vscode.Range(document.positionAt(placed.at), document.positionAt(placed.end)), placed.text);
    return edit;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    for (const handle of this.pending.values()) this.services.clock.clearTimeout(handle);
  }

  /** Checks the document once typing pauses, or at once (one just opened); a failure is logged, never thrown. */
  checkSoon(document: vscode.TextDocument, delayMs = CHECK_DELAY_MS): void {
    const key = document.uri.toString();
    if (this.pending.has(key)) this.services.clock.clearTimeout(this.pending.get(key));
    this.pending.set(key, this.services.clock.setTimeout(() => {
      this.pending.delete(key);
      void this.check(document).catch((error: unknown) => this.services.log.warn(`Task document: check failed: ${String(error)}`));
    }, delayMs));
  }

  private checkAll(): void {
    for (const document of vscode.workspace.textDocuments) if (isTaskDocument(document)) this.checkSoon(document);
  }
}

function droppedRecords(value: unknown): { id: string; name: string; type?: string; project?: string }[] {
  if (!Array.isArray(value)) return [];
  return value
    // A row of Projects & Files carries its record as `file`.
    .map((n: unknown) => (n && typeof n === 'object' ? (n as { file?: unknown }).file : undefined) as { id?: unknown; name?: unknown; type?: unknown; project?: unknown } | undefined)
    .filter((r): r is { id: string; name: string; type?: string; project?: string } => !!r && typeof r.id === 'string' && typeof r.name === 'string');
}

export function isTaskDocument(document: vscode.TextDocument): boolean {
  return isTaskDocumentName(document.uri.path);
}

function toDiagnostic(document: vscode.TextDocument, p: DocumentProblem): vscode.Diagnostic {
  const range = new vscode.Range(document.positionAt(p.span.start), document.positionAt(Math.max(p.span.end, p.span.start)));
  const d = new vscode.Diagnostic(range, p.message, p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  d.source = 'Seven Bridges';
  return d;
}
