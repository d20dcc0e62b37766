// The Volumes view's model: the volumes the user can access, and under each its objects one level at a time, a prefix
// a folder, each level paged with the continuation the platform gives ("Load more"). Rows are a kind plus their record
// (ROW_KINDS). No `vscode`.
import * as l10n from '@vscode/l10n';
import type { Volume, VolumeListing, VolumeObject, VolumesApi } from '../api/volumes';
import { commandTitles, COMMANDS } from '../keys/commands';
import { retryTitle } from '../ui/errorActions';
import { errorRows, kindOf, LoadMoreNode, MessageNode, loadMoreView, messageView, tooltipLines, FIELD, whenText, type RowKinds, type RowModel, type RowView } from '../ui/rowView';
import { Emitter } from '../util/emitter';
import { formatSize } from '../util/words';
import { relativeTime } from '../util/time';
import { parseRecordTimestamp } from '../api/timestamps';

export type VolumesBrowseApi = Pick<VolumesApi, 'list' | 'objects'>;

export interface VolumeNode { readonly kind: 'volume'; readonly id: string; readonly volume: Volume }
/** A prefix of a volume: a folder (`runs/2026-11-02/`, ending with `/`). */
export interface PrefixNode { readonly kind: 'prefix'; readonly id: string; readonly volume: Volume; readonly prefix: string }
export interface ObjectNode { readonly kind: 'object'; readonly id: string; readonly volume: Volume; readonly object: VolumeObject }
export type VolumeMessage = MessageNode<ListingNode> & { readonly kind: 'message' };
export type VolumeMore = LoadMoreNode<ListingNode> & { readonly kind: 'loadMore' };
/** A row whose children are a listing: a volume (its top) or a prefix. */
export type ListingNode = VolumeNode | PrefixNode;
export type VolumesNode = VolumeNode | PrefixNode | ObjectNode | VolumeMessage | VolumeMore;
/** What Import… takes: an object, or a prefix (everything under it). */
export type ImportSource = PrefixNode | ObjectNode;

/** The size and date of an object, as its provider writes them (S3: a number and `last_modified`; GCS: a text and `updated`). */
export function objectFacts(o: VolumeObject): { size?: number; modified?: string } {
  const m = o.metadata ?? {};
  const size = typeof m.size === 'number' ? m.size : typeof m.size === 'string' && /^\d+$/.test(m.size) ? Number(m.size) : undefined;
  const modified = [m.last_modified, m.updated, m.lastModified].find((v): v is string => typeof v === 'string');
  return { size, modified };
}

/** `runs/2026-11-02/` → `2026-11-02`; `runs/a.fastq.gz` → `a.fastq.gz`. */
export function lastSegment(location: string): string {
  const parts = location.split('/').filter((p) => p !== '');
  return parts[parts.length - 1] ?? location;
}

export const noVolumes = (): string => l10n.t('No volumes: attach a cloud bucket as a volume on the platform first.');

export const isReadWrite = (v: Volume): boolean => v.access_mode === 'RW';
export const isActive = (v: Volume): boolean => v.active !== false;

/** "S3 · franklin-lab-sequencing · read-only". */
export function volumeWhere(v: Volume): string {
  const access = isReadWrite(v) ? l10n.t({ message: 'read-write', comment: ['A volume\'s access'] }) : l10n.t({ message: 'read-only', comment: ['A volume\'s access'] });
  return [v.service?.type, v.service?.bucket, access].filter((p): p is string => !!p).join(' · ');
}

interface Listing {
  /** The level it lists: a volume's top, or a prefix. */
  owner: ListingNode;
  entries: (PrefixNode | ObjectNode)[];
  continuation?: string;
  loading: boolean;
  error: unknown;
  /** A page was read (else the first page is still to come). */
  read: boolean;
}

const PAGE = 100;

export const ROW_KINDS: RowKinds<VolumesNode, VolumesModel> = {
  volume: { view: (node) => volumeRow(node.volume), children: (node, model) => model.levelRows(node) },
  prefix: { view: (node) => prefixRow(node), children: (node, model) => model.levelRows(node), parent: (node, model) => model.parentOf(node.volume, node.prefix) },
  object: { view: (node, model) => objectRow(node, model.now()), parent: (node, model) => model.parentOf(node.volume, node.object.location) },
  message: { view: (node) => messageView(node), parent: (node) => node.parent },
  loadMore: {
    view: (node, model) => loadMoreView({ left: undefined, ...model.listingState(node.parent) }, { command: COMMANDS.loadMoreVolume, title: commandTitles().loadMoreVolume, args: [node] }),
    parent: (node) => node.parent,
  },
};

export class VolumesModel implements RowModel<VolumesNode> {
  private readonly changed = new Emitter<VolumesNode | undefined>();
  readonly onDidChange = this.changed.event;
  private volumes: VolumeNode[] | undefined;
  private volumesError: unknown;
  private readonly listings = new Map<string, Listing>();

  constructor(
    private readonly api: VolumesBrowseApi,
    readonly now: () => number,
  ) {}

  async getChildren(row?: VolumesNode): Promise<VolumesNode[]> {
    if (!row) return this.topRows();
    return (await kindOf(ROW_KINDS, row).children?.(row, this)) ?? [];
  }

  getParent(row: VolumesNode): VolumesNode | undefined {
    return kindOf(ROW_KINDS, row).parent?.(row, this);
  }

  rowView(row: VolumesNode): RowView {
    return kindOf(ROW_KINDS, row).view(row, this);
  }

  /** Reads everything again (the volumes and every level opened). */
  refresh(): void {
    this.volumes = undefined;
    this.volumesError = undefined;
    this.listings.clear();
    this.changed.fire(undefined);
  }

  /**
   * Objects were written on a volume (an export ended): every level read so far that holds one of them, or a prefix
   * above one, is read again, so the listing shows what is there now; the others keep what they show.
   */
  objectsChanged(volumeId: string, locations: readonly string[]): void {
    const top = this.volumes?.find((n) => n.volume.id === volumeId);
    const holds = (level: ListingNode) => level.volume.id === volumeId && locations.some((l) => level.kind === 'volume' || l.startsWith(level.prefix));
    const stale = [...this.listings.values()].filter((l) => holds(l.owner));
    if (!top || !stale.length) return;
    for (const l of stale) this.listings.delete(l.owner.id);
    this.changed.fire(top);
  }

  /** The next page of a level ("Load more", or a failed page clicked again). */
  async loadMore(node: VolumeMore | VolumeMessage | ListingNode): Promise<void> {
    const owner = node.kind === 'loadMore' || node.kind === 'message' ? node.parent : node;
    if (!owner) return this.refresh();
    await this.readPage(owner);
  }

  /** A volume's record by ID, as listed (the export and import pickers read them). */
  async list(): Promise<Volume[]> {
    if (!this.volumes) await this.readVolumes();
    return (this.volumes ?? []).map((n) => n.volume);
  }

  listingState(node: ListingNode): { loading: boolean; error: unknown } {
    const l = this.listings.get(node.id);
    return { loading: l?.loading ?? false, error: l?.error };
  }

  /** The row a prefix or object hangs under: its volume at the top, else the prefix above it. */
  parentOf(volume: Volume, location: string): ListingNode | undefined {
    const top = this.volumes?.find((n) => n.volume.id === volume.id) ?? volumeNode(volume);
    const trimmed = location.endsWith('/') ? location.slice(0, -1) : location;
    const cut = trimmed.lastIndexOf('/');
    return cut < 0 ? top : prefixNode(volume, trimmed.slice(0, cut + 1));
  }

  /** A level's rows: what was read so far, then "Load more" while the platform gave a continuation. */
  async levelRows(node: ListingNode): Promise<VolumesNode[]> {
    if (node.kind === 'volume' && !isActive(node.volume)) {
      return [message(node, l10n.t('This volume is inactive: it cannot be browsed, imported from or exported to until its owner activates it again.'), 'warning')];
    }
    let listing = this.listings.get(node.id);
    if (!listing?.read && !listing?.loading) {
      await this.readPage(node);
      listing = this.listings.get(node.id);
    }
    if (!listing) return [];
    const rows: VolumesNode[] = [...listing.entries];
    if (listing.error !== undefined && !listing.read) {
      return errorRows<ListingNode>(node.id, node, listing.error, { title: retryTitle(), command: COMMANDS.loadMoreVolume, args: [node] }) as VolumesNode[];
    }
    if (listing.continuation !== undefined || (listing.error !== undefined && listing.read)) rows.push(new LoadMoreNode<ListingNode>(node) as VolumeMore);
    if (!rows.length) rows.push(message(node, l10n.t('Nothing here.'), 'info'));
    return rows;
  }

  private async topRows(): Promise<VolumesNode[]> {
    if (!this.volumes && this.volumesError === undefined) await this.readVolumes();
    if (this.volumesError !== undefined) return errorRows<ListingNode>('volumes', undefined, this.volumesError, { title: retryTitle(), command: COMMANDS.refreshVolumes }) as VolumesNode[];
    if (!this.volumes?.length) return [new MessageNode<ListingNode>('volumes/none', undefined, noVolumes(), 'info') as VolumeMessage];
    return this.volumes;
  }

  private async readVolumes(): Promise<void> {
    try {
      const all: Volume[] = [];
      let page = await this.api.list({ limit: PAGE });
      all.push(...page.items);
      for (let n = 0; page.next && n < 20; n++) {
        page = await this.api.list({ offset: all.length, limit: PAGE });
        all.push(...page.items);
        if (!page.items.length) break;
      }
      this.volumes = all.sort((a, b) => a.name.localeCompare(b.name)).map(volumeNode);
      this.volumesError = undefined;
    } catch (error) {
      this.volumesError = error;
    }
  }

  private async readPage(node: ListingNode): Promise<void> {
    const listing = this.listings.get(node.id) ?? { owner: node, entries: [], loading: false, error: undefined, read: false };
    this.listings.set(node.id, listing);
    if (listing.loading) return;
    listing.loading = true;
    listing.error = undefined;
    if (listing.read) this.changed.fire(node);
    const prefix = node.kind === 'prefix' ? node.prefix : '';
    try {
      const page: VolumeListing = await this.api.objects(node.volume.id, prefix, { continuation: listing.continuation, limit: PAGE });
      const seen = new Set(listing.entries.map((e) => e.id));
      const fresh = [...page.prefixes.map((p) => prefixNode(node.volume, p)), ...page.objects.map((o) => objectNode(node.volume, o))].filter((e) => !seen.has(e.id));
      listing.entries.push(...fresh);
      listing.continuation = page.continuation;
      listing.read = true;
    } catch (error) {
      listing.error = error;
    } finally {
      listing.loading = false;
    }
    this.changed.fire(node);
  }
}

const volumeNode = (volume: Volume): VolumeNode => ({ kind: 'volume', id: `volume:${volume.id}`, volume });
const prefixNode = (volume: Volume, prefix: string): PrefixNode => ({ kind: 'prefix', id: `prefix:${volume.id}:${prefix}`, volume, prefix: prefix.endsWith('/') ? prefix : `${prefix}/` });
const objectNode = (volume: Volume, object: VolumeObject): ObjectNode => ({ kind: 'object', id: `object:${volume.id}:${object.location}`, volume, object });
const message = (parent: ListingNode, text: string, severity: 'info' | 'warning'): VolumesNode => new MessageNode<ListingNode>(`${parent.id}/message`, parent, text, severity) as VolumeMessage;

export function volumeRow(v: Volume): RowView {
  const where = volumeWhere(v);
  const inactive = !isActive(v);
  const description = inactive ? l10n.t('{0} · inactive', where) : where;
  return {
    label: v.name,
    description,
    tooltip: [v.id, v.description, description].filter((p): p is string => !!p).join('\n'),
    ariaLabel: l10n.t({ message: 'Volume {0}, {1}', args: [v.name, description], comment: ['{0}: a volume\'s name; {1}: its cloud, bucket and access'] }),
    icon: { id: inactive ? 'warning' : 'database' },
    contextValue: ['volume', isReadWrite(v) ? 'readWrite' : 'readOnly', inactive ? 'inactive' : 'active'].join(' '),
    expandable: true,
  };
}

function prefixRow(node: PrefixNode): RowView {
  const name = lastSegment(node.prefix);
  return {
    label: name,
    description: '',
    tooltip: `${node.volume.id}: ${node.prefix}`,
    ariaLabel: l10n.t({ message: 'Folder {0} of volume {1}', args: [node.prefix, node.volume.name], comment: ['A prefix of a volume, shown as a folder'] }),
    icon: { id: 'folder' },
    fileIcon: 'folder',
    contextValue: 'volumePrefix importable',
    expandable: true,
  };
}

function objectRow(node: ObjectNode, now: number): RowView {
  const { size, modified } = objectFacts(node.object);
  const date = parseRecordTimestamp(modified);
  const shownSize = formatSize(size);
  const description = [shownSize, date ? relativeTime(date, now) : undefined].filter((p): p is string => !!p).join(' · ');
  const name = lastSegment(node.object.location);
  return {
    label: name,
    description,
    tooltip: [`${node.volume.id}: ${node.object.location}`, ...tooltipLines([[FIELD.size, shownSize], [FIELD.modified, whenText(modified, now)]])].join('\n'),
    ariaLabel: l10n.t({ message: '{0}, {1}', args: [name, description], comment: ['{0}: an object of a volume; {1}: its size and age'] }),
    icon: { id: 'file' },
    fileIcon: 'file',
    contextValue: 'volumeObject importable',
    expandable: false,
  };
}
