// 6. Secrets: the token never appears in the request log (the client's entries and the lines the extension's
// requestLogger writes), in an error message (describeError of every error above), in what is persisted
// (Memento stand-ins), in the settings the extension or the harness writes, or in the test artefacts.
// Runs last (file order): it reads what the suites before it recorded.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { inspect } from 'util';
import { describeError } from '../../src/api/errors';
import { BASE_SETTINGS } from '../harness/codeServer';
import { pointAt } from '../harness/emulator';
import { artifactsRoot, repoRoot } from '../harness/paths';
import { recordedTokens, scanForTokens } from './scanArtifacts';
import { note, record, TOKEN } from './support';

describe('6. secrets: the token is nowhere it should not be', function () {
  before(() => {
    // It reads what the suites before it recorded: alone (--grep) it would prove nothing, so it fails, not skips.
    assert.ok(record.logEntries.length, 'nothing was recorded: run it with the suites before it (npm run test:faults), not alone');
  });

  it('was used: every emulator and hostile request carried it, so its absence below means something', () => {
    assert.ok(record.logEntries.length > 500, `${record.logEntries.length} requests logged`);
    assert.ok(record.emulators.length > 5);
  });

  it('is in no request log entry and no line the extension logs', () => {
    const entries = record.logEntries.map((e) => JSON.stringify(e));
    for (const text of [...entries, ...record.logLines]) assert.ok(!text.includes(TOKEN), text);
    // The log says what happened without it: method, path, status, duration, request ID.
    assert.ok(record.logLines.some((l) => /^GET \/v2\/tasks\?.* → 200 in \d+ ms · request emu-/.test(l)), record.logLines[0]);
    assert.ok(record.logLines.some((l) => /→ failed \(ECONNRESET\)/.test(l)));
    note(`${record.logEntries.length} log entries and ${record.logLines.length} log lines: no token`);
  });

  it('is in no error: neither the words shown (describeError), nor the message, the stack or the cause', () => {
    for (const error of record.errors) {
      for (const text of [describeError(error), String(error), (error as Error).stack ?? '', inspect(error, { depth: 5 })]) {
        assert.ok(!text.includes(TOKEN), text.slice(0, 300));
      }
    }
    for (const m of record.messages) assert.ok(!m.text.includes(TOKEN), `${m.where}: ${m.text}`);
    note(`${record.errors.length} errors (describeError, message, stack, cause) and ${record.messages.length} messages shown: no token`);
  });

  it('is in nothing persisted (job tracker, pending copies, filters, expanded nodes)', () => {
    let keys = 0;
    for (const store of record.stores) {
      for (const key of store.keys()) {
        keys++;
        assert.ok(!JSON.stringify(store.get(key)).includes(TOKEN), `stored ${key}`);
      }
    }
    assert.ok(keys > 0);
    note(`${record.stores.length} stores, ${keys} keys: no token`);
  });

  it('is in no setting: the extension has none for it, and the harness passes it by environment only', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, unknown> } } };
    const settings = Object.keys(pkg.contributes.configuration.properties);
    assert.deepStrictEqual(settings.filter((k) => /token|secret|password|auth/i.test(k)), [], 'no setting holds a token');
    const target = pointAt({ baseUrl: 'http://127.0.0.1:1/v2', token: TOKEN });
    const written = JSON.stringify({ ...BASE_SETTINGS, ...target.settings });
    assert.ok(!written.includes(TOKEN), 'the settings.json the harness writes');
    assert.strictEqual(target.env.SB_AUTH_TOKEN, TOKEN, 'the token goes by environment');
  });

  it('the artefact scan finds a planted token (UTF-8 and UTF-16), and this run\'s token is not in test-artifacts/', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-scan-'));
    try {
      fs.mkdirSync(path.join(dir, 'logs', 'exthost'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'logs', 'exthost', 'Seven Bridges.log'), `GET /v2/user → 200\nX-SBG-Auth-Token: ${TOKEN}\n`);
      fs.writeFileSync(path.join(dir, 'state.vscdb'), Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(TOKEN, 'utf16le')]));
      fs.writeFileSync(path.join(dir, 'clean.txt'), 'nothing here');
      const planted = scanForTokens([dir], [TOKEN]);
      assert.deepStrictEqual(planted.hits.map((h) => path.relative(dir, h.file)).sort(), [path.join('logs', 'exthost', 'Seven Bridges.log'), 'state.vscdb']);
      assert.ok(planted.hits.every((h) => !h.context.includes(TOKEN)), 'the report masks the token');
      fs.writeFileSync(path.join(dir, 'tokens.txt'), `${TOKEN}\n\nshort\n${TOKEN}\n`);
      assert.deepStrictEqual(recordedTokens(path.join(dir, 'tokens.txt')), [TOKEN, 'short']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const real = scanForTokens([artifactsRoot], [TOKEN]);
    assert.deepStrictEqual(real.hits, []);
    note(`scanner finds planted tokens; test-artifacts/: ${real.files} files, ${(real.bytes / 1e6).toFixed(1)} MB, no token of this run`);
  });
});
