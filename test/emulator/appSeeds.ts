/**
 * The seeded apps (platform-api.md §14) and the public project they share with the public reference files:
 * - the apps the seeded tasks ran (data.ts `APPS`: bwa-mem, fastqc, …) in every seeded project, revisions 0–12 (the
 *   tasks name any of them), their CWL made from that table: a workflow of the tools their jobs run, or one tool;
 * - in `rfranklin/my-project`: `variant-filter` (CWL v1.0, an input of every kind, 4 revisions that differ),
 *   `align-and-sort` (a two-step workflow with embedded tools, 3 revisions), `count-matches` (sbg:draft-2, `#` ids);
 * - public (`admin/sbg-public-data`, which the user reads but is no member of: not in GET /v2/projects):
 *   `samtools-view-1-9-cwl1-0`, `fastqc-0-11-9`, `salmon-workflow` (two steps), `control-freec-8-1` (draft-2), and a
 *   few reference files (a FASTA with its `.fai` and `^.dict`, a dbSNP VCF with its `.tbi`).
 * Drawn from no PRNG: the rest of the data is the same with or without them.
 */
import { createHash } from 'crypto';
import { APPS, type AppRec, type FileRec, type ProjectRec, type Store } from './data';
import type { Cwl } from './cwl';
import { isoZ } from './prng';

export const PUBLIC_PROJECT = 'admin/sbg-public-data';
const DAY_S = 86_400;

type RevisionSeed = { by: string; notes: string; content: Cwl };

function addApp(store: Store, project: string, short: string, createdOn: number, revisions: RevisionSeed[], stepDays = 9): AppRec {
  const app: AppRec = {
    id: `${project}/${short}`,
    project,
    short,
    createdBy: revisions[0].by,
    createdOn,
    revisions: revisions.map((r, i) => ({ revision: i, content: r.content, by: r.by, at: createdOn + i * stepDays * DAY_S, notes: r.notes, validationErrors: [] })),
  };
  store.apps.set(app.id, app);
  return app;
}

const FILE_TYPES: Record<string, string> = {
  reads: 'FASTQ, FASTQ.GZ, FQ, FQ.GZ', input_bam: 'BAM', input_fastq: 'FASTQ, FASTQ.GZ', input: 'TXT, TSV, LOG',
  aligned_reads: 'BAM', vcf: 'VCF.GZ', gvcf: 'G.VCF.GZ', report_zip: 'ZIP', html: 'HTML', log_files: 'LOG', quant: 'QUANT.SF',
  genes: 'GENES.RESULTS', isoforms: 'ISOFORMS.RESULTS', out: 'TXT',
};

/** The CWL of an app the seeded tasks ran: its input, threads, a reference where it takes one, its outputs. */
export function legacyCwl(app: (typeof APPS)[number]): Cwl {
  const inputs: Cwl[] = [
    { id: app.in, label: 'Input files', type: app.array ? 'File[]' : 'File', 'sbg:category': 'Inputs', 'sbg:fileTypes': FILE_TYPES[app.in] },
    { id: 'threads', label: 'Threads', type: 'int', default: 8, 'sbg:toolDefaultValue': '8', 'sbg:category': 'Execution' },
  ];
  if (app.reference) inputs.push({ id: 'reference', label: 'Reference', type: 'File?', 'sbg:category': 'Inputs', 'sbg:fileTypes': 'FASTA, FA' });
  const outputs = app.out.map((id) => ({ id, type: 'File?', 'sbg:fileTypes': FILE_TYPES[id] }));
  const common = { cwlVersion: 'v1.0', label: app.label, doc: `${app.label}, as the seeded tasks ran it.`, 'sbg:toolkit': app.label.split(' ')[0], 'sbg:categories': ['Seeded'], inputs, outputs };
  if (app.tools.length === 1) return { class: 'CommandLineTool', ...common, baseCommand: [app.tools[0]] };
  return {
    class: 'Workflow',
    ...common,
    steps: app.tools.map((tool) => ({ id: tool, run: { class: 'CommandLineTool', cwlVersion: 'v1.0', baseCommand: tool.split('_'), inputs: [], outputs: [] }, in: [], out: [] })),
  };
}

const threads = (dflt: number): Cwl => ({ id: 'threads', label: 'Threads', type: 'int', default: dflt, 'sbg:toolDefaultValue': String(dflt), 'sbg:category': 'Execution' });

/** `variant-filter`, one revision: every kind of input (platform-api.md §14.2 forms), changing from one revision to the next. */
function variantFilter(rev: number): Cwl {
  const inputs: Cwl[] = [
    { id: 'input_bam', label: 'Aligned reads', doc: 'Coordinate-sorted BAM with its index beside it.', type: 'File', secondaryFiles: ['.bai'], 'sbg:fileTypes': 'BAM', 'sbg:category': 'File Inputs' },
    { id: 'reference', label: 'Reference genome', type: 'File', secondaryFiles: ['.fai', '^.dict'], 'sbg:fileTypes': 'FASTA, FA', 'sbg:category': 'File Inputs' },
    { id: 'intervals', label: 'Intervals', doc: 'Restrict filtering to these regions.', type: 'File?', 'sbg:fileTypes': 'BED', 'sbg:category': 'File Inputs' },
    { id: 'known_sites', label: 'Known sites', type: { type: 'array', items: 'File' }, secondaryFiles: ['.tbi'], 'sbg:fileTypes': 'VCF.GZ', 'sbg:category': 'File Inputs', default: [] },
    { id: 'annotation_dir', label: 'Annotation folder', type: 'Directory?', 'sbg:category': 'File Inputs' },
    { id: 'mode', label: 'Mode', type: { type: 'enum', name: 'mode', symbols: ['strict', 'lenient'] }, 'sbg:category': 'Config Inputs' },
    { id: 'output_format', label: 'Output format', type: ['null', { type: 'enum', name: 'output_format', symbols: ['VCF', 'VCF_GZ', 'BCF'] }], 'sbg:toolDefaultValue': 'VCF_GZ', 'sbg:category': 'Config Inputs' },
    { id: 'min_quality', label: 'Minimum quality', type: 'int', default: rev >= 2 ? 30 : 20, 'sbg:toolDefaultValue': rev >= 2 ? '30' : '20', 'sbg:category': 'Config Inputs' },
    { id: 'min_allele_fraction', label: 'Minimum allele fraction', type: 'float', default: 0.05, 'sbg:category': 'Config Inputs' },
    { id: 'max_depth', label: 'Maximum depth', type: 'long?', default: 1000000, 'sbg:category': 'Config Inputs' },
    { id: 'sample_name', label: 'Sample name', doc: 'Written in the VCF header; the BAM\'s own when not set.', type: 'string?', 'sbg:toolDefaultValue': 'null', 'sbg:category': 'Config Inputs' },
    { id: 'exclude_contigs', label: 'Contigs to leave out', type: 'string[]?', 'sbg:category': 'Config Inputs' },
    threads(4),
  ];
  if (rev >= 1) inputs.push({ id: 'keep_filtered', label: 'Keep filtered records', type: 'boolean', default: false, 'sbg:toolDefaultValue': 'False', 'sbg:category': 'Config Inputs' });
  if (rev >= 3) {
    inputs.push({
      id: 'read_filter', label: 'Read filter', 'sbg:category': 'Config Inputs',
      type: ['null', { type: 'record', name: 'read_filter', fields: [{ name: 'min_mapq', type: 'int' }, { name: 'drop_duplicates', type: 'boolean' }] }],
    });
  }
  return {
    class: 'CommandLineTool', cwlVersion: 'v1.0', label: 'Variant Filter', doc: 'Filters the variants called from a BAM by quality, allele fraction and depth.',
    'sbg:toolkit': 'vfilter', 'sbg:toolkitVersion': `1.${rev}`, 'sbg:categories': ['Variant Calling', 'VCF Processing'],
    baseCommand: ['vfilter'], inputs,
    outputs: [
      { id: 'filtered_vcf', label: 'Filtered variants', type: 'File', 'sbg:fileTypes': 'VCF.GZ', outputBinding: { glob: '*.filtered.vcf.gz' } },
      { id: 'filter_report', label: 'Report', type: 'File?', 'sbg:fileTypes': 'HTML', outputBinding: { glob: '*.html' } },
    ],
  };
}

const step = (id: string, command: string, inputs: Cwl[], outputs: Cwl[], stepIn: Cwl[], out: string[]): Cwl => ({
  id, run: { class: 'CommandLineTool', cwlVersion: 'v1.0', label: command, baseCommand: command.split(' '), inputs, outputs }, in: stepIn, out,
});

function alignAndSort(rev: number): Cwl {
  return {
    class: 'Workflow', cwlVersion: 'v1.0', label: 'Align and Sort', doc: 'BWA-MEM alignment, then a coordinate sort with an index.',
    'sbg:toolkit': 'bwa', 'sbg:categories': ['Alignment'],
    inputs: [
      { id: 'reads', label: 'Reads', type: 'File[]', 'sbg:fileTypes': 'FASTQ, FASTQ.GZ', 'sbg:category': 'Inputs' },
      { id: 'reference', label: 'Reference', type: 'File', secondaryFiles: ['.fai'], 'sbg:fileTypes': 'FASTA, FA', 'sbg:category': 'Inputs' },
      threads(rev >= 1 ? 16 : 8),
      { id: 'sort_order', label: 'Sort order', type: { type: 'enum', name: 'sort_order', symbols: ['coordinate', 'queryname'] }, default: 'coordinate', 'sbg:category': 'Options' },
      ...(rev >= 2 ? [{ id: 'read_group', label: 'Read group', type: 'string?', 'sbg:category': 'Options' }] : []),
    ],
    outputs: [{ id: 'sorted_bam', label: 'Sorted BAM', type: 'File', secondaryFiles: ['.bai'], 'sbg:fileTypes': 'BAM', outputSource: 'samtools_sort/sorted' }],
    steps: [
      step('bwa_mem', 'bwa mem', [{ id: 'reads', type: 'File[]' }, { id: 'reference', type: 'File' }, { id: 'threads', type: 'int' }], [{ id: 'aligned', type: 'File' }],
        [{ id: 'reads', source: 'reads' }, { id: 'reference', source: 'reference' }, { id: 'threads', source: 'threads' }], ['aligned']),
      step('samtools_sort', 'samtools sort', [{ id: 'input', type: 'File' }, { id: 'order', type: 'string' }], [{ id: 'sorted', type: 'File' }],
        [{ id: 'input', source: 'bwa_mem/aligned' }, { id: 'order', source: 'sort_order' }], ['sorted']),
    ],
  };
}

function countMatches(rev: number): Cwl {
  return {
    class: 'CommandLineTool', cwlVersion: 'sbg:draft-2', label: 'Count Matches', description: 'Counts the lines of a text file that match a pattern.',
    'sbg:toolkit': 'grep', 'sbg:categories': ['Text Processing'], baseCommand: ['grep', '-c'],
    inputs: [
      { id: '#input_file', label: 'Text file', type: ['File'], 'sbg:fileTypes': 'TXT, TSV, LOG', inputBinding: { position: 2 } },
      { id: '#pattern', label: 'Pattern', type: ['string'], inputBinding: { position: 1 } },
      { id: '#case_insensitive', label: 'Ignore case', type: ['null', 'boolean'], 'sbg:toolDefaultValue': 'False', inputBinding: { prefix: '-i' } },
      ...(rev >= 1 ? [{ id: '#max_count', label: 'Stop after', type: ['null', 'int'], inputBinding: { prefix: '-m' } }] : []),
    ],
    outputs: [{ id: '#count', label: 'Count', type: ['null', 'File'], 'sbg:fileTypes': 'TXT', outputBinding: { glob: 'count.txt' } }],
  };
}

function samtoolsView(rev: number): Cwl {
  return {
    class: 'CommandLineTool', cwlVersion: 'v1.0', label: 'Samtools View', doc: 'Converts, filters or subsets alignments (SAM, BAM, CRAM).',
    'sbg:toolkit': 'samtools', 'sbg:toolkitVersion': '1.9', 'sbg:categories': ['Utilities', 'BAM Processing'], baseCommand: ['samtools', 'view'],
    inputs: [
      { id: 'in_alignments', label: 'Input alignments', type: 'File', secondaryFiles: ['^.bai'], 'sbg:fileTypes': 'BAM, SAM, CRAM', 'sbg:category': 'File Inputs' },
      { id: 'in_reference', label: 'Reference file', type: 'File?', 'sbg:fileTypes': 'FASTA, FA', 'sbg:category': 'File Inputs' },
      { id: 'output_format', label: 'Output format', type: ['null', { type: 'enum', name: 'output_format', symbols: ['SAM', 'BAM', 'CRAM'] }], 'sbg:toolDefaultValue': 'SAM', 'sbg:category': 'Config Inputs' },
      { id: 'include_header', label: 'Include the header', type: 'boolean?', 'sbg:toolDefaultValue': 'False', 'sbg:category': 'Config Inputs' },
      { id: 'regions', label: 'Regions', type: 'string[]?', 'sbg:category': 'Config Inputs' },
      { id: 'min_mapq', label: 'Minimum mapping quality', type: 'int?', 'sbg:toolDefaultValue': '0', 'sbg:category': 'Config Inputs' },
      ...(rev >= 1 ? [{ id: 'subsample_fraction', label: 'Subsample fraction', type: 'float?', 'sbg:category': 'Config Inputs' }] : []),
      threads(rev >= 2 ? 8 : 1),
    ],
    outputs: [{ id: 'out_alignments', label: 'Output alignments', type: 'File?', 'sbg:fileTypes': 'BAM, SAM, CRAM', outputBinding: { glob: '*.bam' } }],
  };
}

function fastqcPublic(): Cwl {
  return {
    class: 'CommandLineTool', cwlVersion: 'v1.0', label: 'FastQC', doc: 'Quality control of high-throughput sequencing reads.',
    'sbg:toolkit': 'FastQC', 'sbg:toolkitVersion': '0.11.9', 'sbg:categories': ['FASTQ Processing', 'Quality Control'], baseCommand: ['fastqc'],
    inputs: [
      { id: 'in_reads', label: 'Input reads', type: 'File[]', 'sbg:fileTypes': 'FASTQ, FQ, FASTQ.GZ, FQ.GZ, BAM, SAM', 'sbg:category': 'File Inputs' },
      { id: 'contaminants', label: 'Contaminants', type: 'File?', 'sbg:fileTypes': 'TXT', 'sbg:category': 'File Inputs' },
      { id: 'kmers', label: 'Kmer length', type: 'int?', 'sbg:toolDefaultValue': '7', 'sbg:category': 'Config Inputs' },
      { id: 'nogroup', label: 'No grouping', type: 'boolean', default: false, 'sbg:category': 'Config Inputs' },
      threads(2),
    ],
    outputs: [
      { id: 'report_zip', label: 'Report archives', type: 'File[]?', 'sbg:fileTypes': 'ZIP', outputBinding: { glob: '*_fastqc.zip' } },
      { id: 'html', label: 'HTML reports', type: 'File[]?', 'sbg:fileTypes': 'HTML', outputBinding: { glob: '*_fastqc.html' } },
    ],
  };
}

function salmonWorkflow(): Cwl {
  return {
    class: 'Workflow', cwlVersion: 'v1.0', label: 'Salmon Quantification Workflow', doc: 'Indexes a transcriptome, then quantifies reads against it.',
    'sbg:toolkit': 'Salmon', 'sbg:toolkitVersion': '1.5.2', 'sbg:categories': ['RNA-Seq', 'Quantification'],
    inputs: [
      { id: 'reads', label: 'Reads', type: 'File[]', 'sbg:fileTypes': 'FASTQ, FASTQ.GZ', 'sbg:category': 'Inputs' },
      { id: 'transcriptome', label: 'Transcriptome', type: 'File', 'sbg:fileTypes': 'FASTA, FA, FA.GZ', 'sbg:category': 'Inputs' },
      { id: 'library_type', label: 'Library type', type: { type: 'enum', name: 'library_type', symbols: ['A', 'IU', 'ISF', 'ISR', 'U'] }, default: 'A', 'sbg:category': 'Options' },
      { id: 'bootstraps', label: 'Bootstraps', type: 'int', default: 0, 'sbg:category': 'Options' },
    ],
    outputs: [{ id: 'quant', label: 'Quantification', type: 'File', 'sbg:fileTypes': 'QUANT.SF', outputSource: 'salmon_quant/quant' }],
    steps: [
      step('salmon_index', 'salmon index', [{ id: 'transcriptome', type: 'File' }], [{ id: 'index', type: 'Directory' }], [{ id: 'transcriptome', source: 'transcriptome' }], ['index']),
      step('salmon_quant', 'salmon quant', [{ id: 'index', type: 'Directory' }, { id: 'reads', type: 'File[]' }], [{ id: 'quant', type: 'File' }],
        [{ id: 'index', source: 'salmon_index/index' }, { id: 'reads', source: 'reads' }], ['quant']),
    ],
  };
}

function controlFreec(rev: number): Cwl {
  return {
    class: 'CommandLineTool', cwlVersion: 'sbg:draft-2', label: 'Control-FREEC', description: 'Copy number and allelic content from sequencing data.',
    'sbg:toolkit': 'Control-FREEC', 'sbg:toolkitVersion': '8.1', 'sbg:categories': ['Copy Number Analysis'], baseCommand: ['freec'],
    inputs: [
      { id: '#mate_file_sample', label: 'Sample reads', type: ['File'], 'sbg:fileTypes': 'BAM', inputBinding: { secondaryFiles: ['.bai'] } },
      { id: '#mate_file_control', label: 'Control reads', type: ['null', 'File'], 'sbg:fileTypes': 'BAM' },
      { id: '#chr_len', label: 'Chromosome lengths', type: ['File'], 'sbg:fileTypes': 'TXT, FAI' },
      { id: '#ploidy', label: 'Ploidy', type: { type: 'array', items: 'int' }, 'sbg:category': 'Options' },
      { id: '#window', label: 'Window size', type: ['null', 'int'], 'sbg:toolDefaultValue': '50000', 'sbg:category': 'Options' },
      ...(rev >= 1 ? [{ id: '#sex', label: 'Sex', type: ['null', { type: 'enum', name: 'sex', symbols: ['XX', 'XY'] }], 'sbg:category': 'Options' }] : []),
    ],
    outputs: [{ id: '#cnvs', label: 'CNVs', type: ['null', 'File'], 'sbg:fileTypes': 'TXT', outputBinding: { glob: '*_CNVs' } }],
  };
}

const hexId = (seed: number, name: string): string => createHash('sha256').update(`public:${seed}:${name}`).digest('hex').slice(0, 24);

/** The public project (read-only, no member list) with its reference files. */
function addPublicProject(store: Store, seed: number): void {
  const at = isoZ(store.startedAt - 900 * DAY_S * 1000);
  const root = hexId(seed, 'root');
  const project: ProjectRec = {
    id: PUBLIC_PROJECT, name: 'SBG Public Data', type: 'v2', description: 'Public reference files and apps.', tags: [],
    settings: { locked: true, use_interruptible_instances: false, use_memoization: false }, billing_group: '00000000-0000-4000-8000-000000000000',
    root_folder: root, created_by: 'admin', created_on: at, modified_on: at, category: 'PUBLIC',
    permissions: { write: false, read: true, copy: true, execute: false, admin: false },
  };
  store.projectById.set(project.id, project);
  const add = (name: string, type: FileRec['type'], size?: number, parent: string | null = root): FileRec =>
    store.addFile({ id: name === '' ? root : hexId(seed, name), name: name || 'sbg-public-data', size, project: project.id, parent, type, created_on: at, modified_on: at, origin: {}, tags: [], metadata: {} });
  add('', 'folder', undefined, null);
  for (const [name, size] of [
    ['Homo_sapiens_assembly38.fasta', 3_249_912_778], ['Homo_sapiens_assembly38.fasta.fai', 160_928], ['Homo_sapiens_assembly38.dict', 568_011],
    ['dbsnp_146.hg38.vcf.gz', 3_331_238_490], ['dbsnp_146.hg38.vcf.gz.tbi', 2_522_604], ['gencode.v39.transcripts.fa', 421_875_020],
  ] as [string, number][]) add(name, 'file', size);
}

/** Every seeded app and the public project; called once, after the rest of the data is drawn. */
export function addApps(store: Store, seed: number): void {
  addPublicProject(store, seed);
  const now = Math.floor(store.startedAt / 1000);
  for (const project of store.projects) {
    APPS.forEach((app, i) => {
      const content = legacyCwl(app);
      const revisions = Array.from({ length: 13 }, (_, r): RevisionSeed => ({ by: project.created_by, notes: r === 0 ? 'First version.' : `Revision ${r}.`, content }));
      addApp(store, project.id, app.id, now - (400 + i) * DAY_S, revisions, 14);
    });
  }
  const mine = store.projects[0]?.id;
  if (mine) {
    const notes = ['First version.', 'Adds keep_filtered.', 'Minimum quality 20 → 30.', 'Adds a read filter (a record).'];
    addApp(store, mine, 'variant-filter', now - 60 * DAY_S, notes.map((n, r) => ({ by: r === 2 ? 'mwilkins' : 'rfranklin', notes: n, content: variantFilter(r) })));
    addApp(store, mine, 'align-and-sort', now - 45 * DAY_S, ['First version.', 'Threads 8 → 16.', 'Adds a read group.'].map((n, r) => ({ by: 'rfranklin', notes: n, content: alignAndSort(r) })));
    addApp(store, mine, 'count-matches', now - 30 * DAY_S, ['First version.', 'Adds max_count.'].map((n, r) => ({ by: 'rfranklin', notes: n, content: countMatches(r) })));
  }
  const admin = (notes: string[], make: (rev: number) => Cwl) => notes.map((n, r): RevisionSeed => ({ by: 'admin', notes: n, content: make(r) }));
  addApp(store, PUBLIC_PROJECT, 'samtools-view-1-9-cwl1-0', now - 700 * DAY_S, admin(['Initial release.', 'Adds subsampling.', 'Threads default 8.'], samtoolsView), 60);
  addApp(store, PUBLIC_PROJECT, 'fastqc-0-11-9', now - 650 * DAY_S, admin(['Initial release.'], fastqcPublic));
  addApp(store, PUBLIC_PROJECT, 'salmon-workflow', now - 500 * DAY_S, admin(['Initial release.', 'Documentation.'], salmonWorkflow), 30);
  addApp(store, PUBLIC_PROJECT, 'control-freec-8-1', now - 900 * DAY_S, admin(['Initial release.', 'Adds sex.'], controlFreec), 90);
}
