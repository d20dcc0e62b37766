import * as vscode from 'vscode';
import type { JobTracker } from '../jobs/tracker';
import { treeMime, VIEWS } from '../keys/views';
import type { Services } from '../services';
import type { OnFirstUse } from '../ui/commands';
import type { RowModel } from '../ui/rowView';
import { showRows, type RowTree } from '../ui/rowTree';
import { Emitter } from '../util/emitter';
import { later as lazily } from '../util/later';
import type { volumesCommands, volumesModel } from './commands';
import type { VolumesModel, VolumesNode } from './volumesModel';

/** What the Volumes view loads on first use (dist/features.js): its model, when the view is first drawn, and its commands. */
export interface VolumesOnFirstUse {
  volumesModel: typeof volumesModel;
  volumesCommands: typeof volumesCommands;
}

/** The running Volumes view, for the integration tests. */
export interface VolumesFeature {
  readonly rows: RowTree<VolumesNode>;
  readonly view: vscode.TreeView<VolumesNode>;
  /** Its model, loaded on first use. */
  model(): Promise<VolumesModel>;
}

/** The Volumes view's rows dragged: Projects & Files takes them as an import. */
const VOLUMES_MIME = treeMime(VIEWS.volumes);

/**
 * Volumes, a view of its own: the buckets are the account's, not a project's, and its model loads with the features
 * when the view is first drawn (dist/main.js keeps within its budget). Rows dragged onto a folder of Projects & Files
 * are imported there.
 */
export function registerVolumes(services: Services, tracker: JobTracker, later: OnFirstUse<VolumesOnFirstUse>): VolumesFeature {
  const changed = new Emitter<VolumesNode | undefined>();
  let loaded: VolumesModel | undefined;
  const model = lazily(async () => {
    loaded = (await later.load()).volumesModel(services, tracker);
    services.context.subscriptions.push(loaded.onDidChange((row) => changed.fire(row)));
    return loaded;
  });
  const proxy: RowModel<VolumesNode> = {
    onDidChange: changed.event,
    getChildren: async (row) => (await model()).getChildren(row),
    // Rows exist only once the model gave them.
    getParent: (row) => loaded?.getParent(row),
    rowView: (row) => loaded!.rowView(row),
  };
  const { view, rows, disposables } = showRows(VIEWS.volumes, proxy, {
    clock: services.clock,
    canSelectMany: true,
    dragAndDropController: {
      dragMimeTypes: [VOLUMES_MIME],
      dropMimeTypes: [],
      handleDrag: (source, dataTransfer) => dataTransfer.set(VOLUMES_MIME, new vscode.DataTransferItem(source.filter((r) => r.kind === 'prefix' || r.kind === 'object'))),
    },
  });
  later.commands((features) => features.volumesCommands({ services, tracker, model, view }));
  services.context.subscriptions.push(...disposables, changed, services.selections.watch(view), services.session.onDidChange(() => loaded?.refresh()));
  return { rows, view, model };
}
