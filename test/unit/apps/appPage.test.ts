// An app opened (apps/appPage.ts): its page in Markdown, from the CWL of the revision opened.
import * as assert from 'assert';
import { renderAppPage } from '../../../src/apps/appPage';

const cwl = {
  class: 'CommandLineTool',
  cwlVersion: 'v1.0',
  label: 'Variant Filter',
  doc: 'Filters *variants*.',
  'sbg:toolkit': 'vfilter',
  'sbg:toolkitVersion': '1.3',
  'sbg:revision': 1,
  'sbg:latestRevision': 2,
  inputs: [
    { id: 'input_bam', label: 'Aligned | reads', type: 'File', 'sbg:fileTypes': 'BAM, CRAM' },
    { id: 'known_sites', type: 'File[]?' },
    { id: 'min_quality', label: 'Minimum quality', type: 'int', default: 30 },
    { id: 'output_format', type: ['null', { type: 'enum', name: 'of', symbols: ['VCF', 'BCF'] }], 'sbg:toolDefaultValue': 'VCF' },
  ],
  outputs: [{ id: 'filtered', label: 'Filtered', type: 'File', 'sbg:fileTypes': 'VCF.GZ' }, { id: 'report', type: 'File?' }],
  'sbg:revisionsInfo': [
    { 'sbg:revision': 0, 'sbg:modifiedBy': 'rfranklin', 'sbg:modifiedOn': 1700000000, 'sbg:revisionNotes': 'First.' },
    { 'sbg:revision': 2, 'sbg:modifiedBy': 'mwilkins', 'sbg:modifiedOn': 1700172800 },
    { 'sbg:revision': 1, 'sbg:modifiedBy': 'mwilkins', 'sbg:modifiedOn': 1700086400, 'sbg:revisionNotes': 'Faster.' },
  ],
};

describe('apps/appPage: an app opened', () => {
  it('shows what the app is, its inputs, outputs and revisions (newest first, the one opened in bold), then its description', () => {
    assert.strictEqual(
      renderAppPage('rfranklin/rna-seq/vfilter', 1, cwl),
      [
        '# Variant Filter',
        '',
        '`rfranklin/rna-seq/vfilter` · revision 1 (the latest is 2) · project rfranklin/rna-seq',
        '',
        'Toolkit: vfilter 1.3 · CommandLineTool, CWL v1.0',
        '',
        '## Inputs',
        '',
        '| ID | Label | Type | Needed | Default | File types |',
        '| --- | --- | --- | --- | --- | --- |',
        '| `input_bam` | Aligned \\| reads | `File` | required |  | BAM, CRAM |',
        '| `known_sites` |  | `File[]` | optional |  |  |',
        '| `min_quality` | Minimum quality | `int` | optional | `30` |  |',
        '| `output_format` |  | `enum` | optional | VCF (the tool\'s own) |  |',
        '',
        '## Outputs',
        '',
        '| ID | Label | Type | File types |',
        '| --- | --- | --- | --- |',
        '| `filtered` | Filtered | `File` | VCF.GZ |',
        '| `report` |  | `File?` |  |',
        '',
        '## Revisions',
        '',
        '| Revision | By | When | Notes |',
        '| --- | --- | --- | --- |',
        '| 2 | mwilkins | 2023-11-16 22:13 UTC |  |',
        '| **1** | mwilkins | 2023-11-15 22:13 UTC | Faster. |',
        '| 0 | rfranklin | 2023-11-14 22:13 UTC | First. |',
        '',
        '## Description',
        '',
        'Filters *variants*.',
        '',
      ].join('\n'),
    );
  });

  it('says so when an app has no inputs or outputs, and names a workflow\'s steps; the latest revision is not repeated', () => {
    const page = renderAppPage('o/p/two-step', 4, { class: 'Workflow', 'sbg:revision': 4, 'sbg:latestRevision': 4, steps: [{ id: 'a' }, { id: 'b' }] });
    assert.strictEqual(
      page,
      ['# two-step', '', '`o/p/two-step` · revision 4 · project o/p', '', 'Workflow · 2 steps', '', '## Inputs', '', 'This app takes no inputs.', '', '## Outputs', '', 'This app declares no outputs.', ''].join('\n'),
    );
  });

  it('escapes what the platform names, so a label cannot make a heading, a link or break a table', () => {
    const page = renderAppPage('o/p/x', 0, { label: '[click](http://evil)\n# Heading', inputs: [{ id: 'a', label: 'x | y\nz', type: 'string' }] });
    assert.ok(page.startsWith('# \\[click\\]\\(http://evil\\) \\# Heading\n'), page);
    assert.ok(page.includes('| `a` | x \\| y z | `string` | required |  |  |'), page);
  });
});
