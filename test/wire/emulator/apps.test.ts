/** The emulator's apps (platform-api.md §14): listing, getting, raw CWL, install, revisions, copy, and their refusals. */
import * as assert from 'assert';
import { startEmulator, type Emulator } from '../../emulator';
import { caller, query, type Json } from './call';

describe('emulator: apps', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let call: ReturnType<typeof caller>;
  let clock = 0;
  const mine = 'rfranklin/my-project';

  before(async () => {
    clock = Date.parse('2026-11-20T12:00:00Z');
    emu = await startEmulator({ now: () => clock, tasks: 60, files: 300, batches: [] });
    call = caller(emu);
  });
  after(() => emu.close());

  const post = async (path: string, text: string, contentType: string) => {
    const r = await fetch(emu.baseUrl + path, { method: 'POST', headers: { 'X-SBG-Auth-Token': emu.token, 'Content-Type': contentType }, body: text });
    const body = await r.text();
    return { status: r.status, body: JSON.parse(body) as Json };
  };
  const ids = (r: { body: Json }) => r.body.items.map((i: Json) => i.id);

  describe('listing and getting', () => {
    it("without project or visibility: the apps of the caller's projects, default fields, paged, ordered by ID", async () => {
      const r = await call('GET', '/apps?limit=100');
      assert.strictEqual(r.status, 200);
      const total = Number(r.headers.get('x-total-matching-query'));
      assert.strictEqual(total, 5 * 7 + 3, 'the 7 apps the seeded tasks ran in each of 5 projects, and 3 of my own');
      assert.deepStrictEqual(Object.keys(r.body.items[0]).sort(), ['href', 'id', 'name', 'project', 'revision']);
      const listed: string[] = ids(r);
      assert.deepStrictEqual(listed, [...listed].sort());
      assert.ok(!listed.some((id) => id.startsWith('admin/sbg-public-data/')), 'public apps only with visibility=public');
      assert.ok(listed.includes(`${mine}/variant-filter/3`) && listed.includes(`${mine}/bwa-mem/12`), 'each at its latest revision');
      const page = await call('GET', '/apps?limit=10&offset=30');
      assert.deepStrictEqual(ids(page), listed.slice(30, 40));
    });

    it('visibility=public (any case), project, id, q (AND, case-insensitive over name, ID, description, toolkit, categories), fields=_all', async () => {
      const pub = await call('GET', '/apps?visibility=PUBLIC');
      assert.deepStrictEqual(ids(pub), [
        'admin/sbg-public-data/control-freec-8-1/1', 'admin/sbg-public-data/fastqc-0-11-9/0', 'admin/sbg-public-data/salmon-workflow/1', 'admin/sbg-public-data/samtools-view-1-9-cwl1-0/2',
      ]);
      assert.strictEqual((await call('GET', '/apps?visibility=hidden')).body.code, 6012);
      const own = await call('GET', `/apps?project=${mine}&q=VARIANT`);
      assert.deepStrictEqual(ids(own), [`${mine}/variant-filter/3`]);
      assert.deepStrictEqual(ids(await call('GET', `/apps?${query([['visibility', 'public'], ['q', 'samtools'], ['q', 'utilities']])}`)), ['admin/sbg-public-data/samtools-view-1-9-cwl1-0/2'], 'toolkit and category');
      assert.deepStrictEqual(ids(await call('GET', `/apps?${query([['visibility', 'public'], ['q', 'samtools'], ['q', 'rna']])}`)), [], 'every q must match');
      assert.deepStrictEqual(ids(await call('GET', `/apps?${query([['project', mine], ['q', 'lines of a text']])}`)), [`${mine}/count-matches/1`], 'the description');
      assert.deepStrictEqual(ids(await call('GET', `/apps?id=${mine}/align-and-sort/1`)), [`${mine}/align-and-sort/1`]);
      assert.strictEqual((await call('GET', '/apps?project=nobody/nothing')).body.items.length, 0);
      const all = await call('GET', `/apps?project=${mine}&q=align&fields=_all`);
      assert.strictEqual(all.body.items[0].raw.class, 'Workflow');
    });

    it('GET one app (latest or a revision) with its raw; raw per revision; unknown app or revision 404 6002', async () => {
      const latest = await call('GET', `/apps/${mine}/variant-filter`);
      assert.deepStrictEqual([latest.body.id, latest.body.revision, latest.body.name, latest.body.project], [`${mine}/variant-filter/3`, 3, 'Variant Filter', mine]);
      assert.strictEqual(latest.body.href, `${emu.baseUrl}/apps/${mine}/variant-filter/3`);
      const r0 = await call('GET', `/apps/${mine}/variant-filter/0/raw`);
      const r2 = await call('GET', `/apps/${mine}/variant-filter/2/raw`);
      const input = (raw: Json, id: string) => raw.inputs.find((i: Json) => i.id === id);
      assert.strictEqual(input(r0.body, 'keep_filtered'), undefined, 'revision 0 has no keep_filtered');
      assert.deepStrictEqual([input(r0.body, 'min_quality').default, input(r2.body, 'min_quality').default], [20, 30], 'each revision its own content');
      assert.deepStrictEqual([r2.body['sbg:id'], r2.body['sbg:revision'], r2.body['sbg:latestRevision'], r2.body['sbg:project'], r2.body['sbg:modifiedBy']], [`${mine}/variant-filter/2`, 2, 3, mine, 'mwilkins']);
      assert.deepStrictEqual(r2.body['sbg:revisionsInfo'].map((i: Json) => [i['sbg:revision'], i['sbg:modifiedBy'], typeof i['sbg:modifiedOn']]),
        [[0, 'rfranklin', 'number'], [1, 'rfranklin', 'number'], [2, 'mwilkins', 'number'], [3, 'rfranklin', 'number']]);
      assert.deepStrictEqual((await call('GET', `/apps/${mine}/variant-filter/raw`)).body['sbg:id'], `${mine}/variant-filter/3`);
      for (const path of [`/apps/${mine}/nothing`, `/apps/${mine}/variant-filter/9`, `/apps/${mine}/variant-filter/9/raw`, `/apps/${mine}/variant-filter/x`]) {
        const r = await call('GET', path);
        assert.deepStrictEqual([r.status, r.body.code], [404, 6002], path);
      }
    });

    it('the seeded CWL covers every kind of input, a two-step workflow and sbg:draft-2 ids', async () => {
      const vf = (await call('GET', `/apps/${mine}/variant-filter/raw`)).body;
      const types = Object.fromEntries(vf.inputs.map((i: Json) => [i.id, i.type]));
      assert.deepStrictEqual([types.input_bam, types.intervals, types.annotation_dir, types.sample_name, types.exclude_contigs, types.max_depth], ['File', 'File?', 'Directory?', 'string?', 'string[]?', 'long?']);
      assert.deepStrictEqual(types.known_sites, { type: 'array', items: 'File' });
      assert.deepStrictEqual(types.mode.symbols, ['strict', 'lenient']);
      assert.strictEqual(types.read_filter[1].type, 'record');
      const bam = vf.inputs.find((i: Json) => i.id === 'input_bam');
      assert.deepStrictEqual([bam.secondaryFiles, bam['sbg:fileTypes'], bam['sbg:category']], [['.bai'], 'BAM', 'File Inputs']);
      assert.deepStrictEqual(vf.inputs.find((i: Json) => i.id === 'reference').secondaryFiles, ['.fai', '^.dict']);
      assert.strictEqual(vf.inputs.find((i: Json) => i.id === 'min_quality')['sbg:toolDefaultValue'], '30');
      const wf = (await call('GET', `/apps/${mine}/align-and-sort/raw`)).body;
      assert.deepStrictEqual(wf.steps.map((s: Json) => [s.id, s.run.class]), [['bwa_mem', 'CommandLineTool'], ['samtools_sort', 'CommandLineTool']]);
      const d2 = (await call('GET', '/apps/admin/sbg-public-data/control-freec-8-1/raw')).body;
      assert.strictEqual(d2.cwlVersion, 'sbg:draft-2');
      assert.ok(d2.inputs.every((i: Json) => i.id.startsWith('#')));
    });
  });

  describe('install and revisions', () => {
    const tool = (label: string): Json => ({
      class: 'CommandLineTool', cwlVersion: 'v1.0', label, baseCommand: ['echo'], 'sbg:revisionNotes': 'pushed',
      inputs: [{ id: 'message', type: 'string' }], outputs: [{ id: 'out', type: 'stdout' }], 'sbg:id': 'someone/else/app/99', 'sbg:revision': 99,
    });

    it('a new app is revision 0, the next POST …/raw latest+1; the server sets the sbg: fields whatever was posted (JSON and YAML)', async () => {
      clock += 1000;
      const first = await call('POST', `/apps/${mine}/echo-tool/raw`, tool('Echo'));
      assert.strictEqual(first.status, 200);
      assert.deepStrictEqual([first.body['sbg:id'], first.body['sbg:revision'], first.body['sbg:latestRevision'], first.body['sbg:project'], first.body['sbg:createdBy'], first.body['sbg:revisionNotes']],
        [`${mine}/echo-tool/0`, 0, 0, mine, emu.username, 'pushed']);
      assert.strictEqual(first.body['sbg:modifiedOn'], Math.floor(clock / 1000));
      assert.deepStrictEqual(first.body['sbg:validationErrors'], []);
      const yaml = 'class: CommandLineTool\ncwlVersion: v1.0\nlabel: Echo twice\nbaseCommand: [echo]\ninputs:\n  message: string\n  times: {type: int, default: 2}\noutputs: []\n';
      const second = await post(`/apps/${mine}/echo-tool/raw`, yaml, 'application/yaml');
      assert.deepStrictEqual([second.status, second.body['sbg:revision'], second.body.label], [200, 1, 'Echo twice']);
      assert.deepStrictEqual(second.body.inputs, { message: 'string', times: { type: 'int', default: 2 } });
      assert.deepStrictEqual((await call('GET', `/apps/${mine}/echo-tool/0/raw`)).body['sbg:latestRevision'], 1);
      assert.strictEqual((await call('GET', `/apps/${mine}/echo-tool`)).body.name, 'Echo twice');
    });

    it('POST …/{rev}/raw: exactly latest+1; an existing revision 409 6003, a gap 400, an unknown app 404 6002', async () => {
      await call('POST', `/apps/${mine}/rev-tool/raw`, tool('R'));
      const next = await call('POST', `/apps/${mine}/rev-tool/1/raw`, tool('R1'));
      assert.deepStrictEqual([next.status, next.body['sbg:revision']], [200, 1]);
      const again = await call('POST', `/apps/${mine}/rev-tool/1/raw`, tool('R1 again'));
      assert.deepStrictEqual([again.status, again.body.code], [409, 6003]);
      const gap = await call('POST', `/apps/${mine}/rev-tool/5/raw`, tool('R5'));
      assert.strictEqual(gap.status, 400);
      const missing = await call('POST', `/apps/${mine}/never-made/1/raw`, tool('X'));
      assert.deepStrictEqual([missing.status, missing.body.code], [404, 6002]);
      assert.strictEqual(emu.data.apps.get(`${mine}/rev-tool`)!.revisions.length, 2, 'nothing made by the refusals');
    });

    it('invalid CWL: 90009 undecodable, 90000 no class / an input without id or type / a workflow without steps; milder problems kept in sbg:validationErrors', async () => {
      const cases: [string, string, number][] = [
        ['{"class": ', 'application/json', 90009],
        ['class: [unclosed', 'application/yaml', 90009],
        [JSON.stringify({ cwlVersion: 'v1.0', inputs: [], outputs: [] }), 'application/json', 90000],
        [JSON.stringify({ class: 'Tool', inputs: [], outputs: [] }), 'application/json', 90000],
        [JSON.stringify({ class: 'CommandLineTool', inputs: [{ type: 'File' }], outputs: [] }), 'application/json', 90000],
        [JSON.stringify({ class: 'CommandLineTool', inputs: [{ id: 'x' }], outputs: [] }), 'application/json', 90000],
        [JSON.stringify({ class: 'Workflow', inputs: [], outputs: [], steps: [] }), 'application/json', 90000],
        ['"just text"', 'application/json', 90000],
      ];
      for (const [text, type, code] of cases) {
        const r = await post(`/apps/${mine}/bad-tool/raw`, text, type);
        assert.deepStrictEqual([r.status, r.body.code], [400, code], text);
      }
      assert.ok(!emu.data.apps.has(`${mine}/bad-tool`));
      const mild = await call('POST', `/apps/${mine}/mild-tool/raw`, { class: 'CommandLineTool', inputs: [{ id: 'x', type: 'Flie' }], steps: [] });
      assert.strictEqual(mild.status, 200);
      assert.deepStrictEqual(mild.body['sbg:validationErrors'], ["No 'cwlVersion': read as v1.0.", "No 'outputs': the app makes nothing the platform keeps.", "Input 'x': unknown type 'Flie'."]);
    });

    it('writing needs a project that exists and write permission; a name of letters, digits, - and _', async () => {
      const readOnly = emu.data.projects.find((p) => !p.permissions.write)!;
      for (const [path, status, code] of [
        [`/apps/${readOnly.id}/x/raw`, 403, 6001],
        ['/apps/admin/sbg-public-data/x/raw', 403, 6001],
        ['/apps/nobody/nothing/x/raw', 404, 3002],
        [`/apps/${mine}/bad%20name/raw`, 400, 6011],
      ] as [string, number, number][]) {
        const r = await call('POST', path, tool('T'));
        assert.deepStrictEqual([r.status, r.body.code], [status, code], path);
      }
    });
  });

  describe('copy', () => {
    const target = 'rfranklin/rna-seq-analysis';
    it('clone (default): all revisions, numbers kept, sbg:copyOf; direct and transient: the one revision as 0; clone_direct: all', async () => {
      const clone = await call('POST', `/apps/${mine}/variant-filter/actions/copy`, { project: target, name: 'vf-clone' });
      assert.deepStrictEqual([clone.status, clone.body.id, clone.body.revision, clone.body.project], [200, `${target}/vf-clone/3`, 3, target]);
      const raw = (await call('GET', `/apps/${target}/vf-clone/2/raw`)).body;
      assert.deepStrictEqual([raw['sbg:copyOf'], raw['sbg:modifiedBy'], raw['sbg:revisionsInfo'].length], [`${mine}/variant-filter/3`, 'mwilkins', 4]);
      const direct = await call('POST', `/apps/${mine}/variant-filter/1/actions/copy`, { project: target, name: 'vf-direct', strategy: 'direct' });
      assert.deepStrictEqual([direct.body.id, direct.body.raw['sbg:copyOf'], direct.body.raw['sbg:revisionsInfo'].length], [`${target}/vf-direct/0`, `${mine}/variant-filter/1`, 1]);
      assert.ok(direct.body.raw.inputs.some((i: Json) => i.id === 'keep_filtered') && !direct.body.raw.inputs.some((i: Json) => i.id === 'read_filter'), 'the content of revision 1');
      const cd = await call('POST', `/apps/${mine}/align-and-sort/actions/copy`, { project: target, strategy: 'clone_direct' });
      assert.deepStrictEqual([cd.body.id, cd.body.raw['sbg:revisionsInfo'].length], [`${target}/align-and-sort/2`, 3]);
      const tr = await call('POST', '/apps/admin/sbg-public-data/fastqc-0-11-9/actions/copy', { project: target, strategy: 'transient' });
      assert.deepStrictEqual([tr.body.id, tr.body.raw['sbg:copyOf']], [`${target}/fastqc-0-11-9/0`, 'admin/sbg-public-data/fastqc-0-11-9/0']);
      assert.ok((await call('GET', `/apps?project=${target}&q=fastqc`)).body.items.some((i: Json) => i.id === `${target}/fastqc-0-11-9/0`), 'listed at once');
    });

    it('refusals: a name taken 409 6003, an unknown strategy 400, no project 400 6009, a read-only project 403 6001, an unknown app 404 6002', async () => {
      const readOnly = emu.data.projects.find((p) => !p.permissions.write)!;
      for (const [path, body, status, code] of [
        [`/apps/${mine}/variant-filter/actions/copy`, { project: mine }, 409, 6003],
        [`/apps/${mine}/variant-filter/actions/copy`, { project: target, name: 'x1', strategy: 'deep' }, 400, 90000],
        [`/apps/${mine}/variant-filter/actions/copy`, { name: 'x2' }, 400, 6009],
        [`/apps/${mine}/variant-filter/actions/copy`, { project: readOnly.id }, 403, 6001],
        [`/apps/${mine}/nothing/actions/copy`, { project: target }, 404, 6002],
      ] as [string, Json, number, number][]) {
        const r = await call('POST', path, body);
        assert.deepStrictEqual([r.status, r.body.code], [status, code], JSON.stringify(body));
      }
    });
  });
});
