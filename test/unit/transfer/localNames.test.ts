// The one rule for local names and places (issue 36): safe names per platform (the platform passed in, so Windows'
// rules are checked on every machine), paths inside the folder by segments, names one on a case-insensitive disk.
import * as assert from 'assert';
import { diskKey, isInside, safeName, targetPath } from '../../../src/transfer/localFiles';

describe('transfer: local names and places (one rule)', () => {
  it('keeps a name as it is where the system takes it: names that start with dots, colons and backslashes on Linux and macOS', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      for (const name of ['..notes.txt', '...', '.hidden', 'a.txt:stream', 'CON', 'aux.txt', 'x\\y', 'name. ', 'ünïcödé.vcf']) assert.strictEqual(safeName(name, platform), name, `${platform}: ${name}`);
    }
  });

  it('makes safe what no system takes: a slash, control characters, an empty name, "." and ".."', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      assert.strictEqual(safeName('a/b', platform), 'a_b');
      assert.strictEqual(safeName('tab\there\u0000\u001b[31m', platform), 'tab_here__[31m');
      for (const name of ['', '.', '..']) assert.strictEqual(safeName(name, platform), '_', `${platform}: "${name}"`);
      assert.strictEqual(safeName('..', platform, 'task-id'), 'task-id', 'the fallback given');
    }
  });

  it('on Windows: reserved characters (an NTFS stream included), trailing dots and spaces, device names whatever their extension', () => {
    const cases: [string, string][] = [
      ['a.txt:stream', 'a.txt_stream'],
      ['x<y>z"q|w?e*r\\t', 'x_y_z_q_w_e_r_t'],
      ['name. ', 'name'],
      ['name...', 'name'],
      ['...', '_'],
      ['CON', '_CON'],
      ['con', '_con'],
      ['aux.txt', '_aux.txt'],
      ['NUL .tar.gz', '_NUL .tar.gz'],
      ['COM1.log', '_COM1.log'],
      ['lpt9', '_lpt9'],
      ['COM¹', '_COM¹'],
      ['CONOUT$', '_CONOUT$'],
      ['CONSOLE.txt', 'CONSOLE.txt'],
      ['aux_file.txt', 'aux_file.txt'],
      ['..notes.txt', '..notes.txt'],
    ];
    for (const [name, expected] of cases) assert.strictEqual(safeName(name, 'win32'), expected, name);
    for (const [name] of cases) assert.strictEqual(safeName(safeName(name, 'win32'), 'win32'), safeName(name, 'win32'), `made safe once is safe: ${name}`);
  });

  it('cuts a name longer than 255 bytes of UTF-8 at a whole character', () => {
    const long = 'é'.repeat(200);
    const cut = safeName(long, 'linux');
    assert.strictEqual(Buffer.byteLength(cut), 254);
    assert.strictEqual(cut, 'é'.repeat(127));
  });

  it('places a path under the target by segments: "..notes.txt" and "..." are inside (issue 36, item 9); ".." and empty segments are refused', () => {
    const target = '/tmp/target';
    assert.strictEqual(targetPath(target, 'a/b/c.txt', 'linux'), '/tmp/target/a/b/c.txt');
    assert.strictEqual(targetPath(target, '..notes.txt', 'linux'), '/tmp/target/..notes.txt');
    assert.strictEqual(targetPath(target, '...', 'linux'), '/tmp/target/...');
    assert.strictEqual(targetPath(target, 'run/..b/...c', 'linux'), '/tmp/target/run/..b/...c');
    assert.strictEqual(targetPath(target, 'a\\b', 'linux'), '/tmp/target/a\\b', 'a backslash is a name on Linux');
    assert.strictEqual(targetPath(target, 'x\u0000y', 'linux'), '/tmp/target/x_y');
    for (const bad of ['', '..', '../x', 'a/../../x', 'a//b', '/etc/passwd', 'a/./b', 'a/']) assert.strictEqual(targetPath(target, bad, 'linux'), undefined, bad);
  });

  it('on Windows, places each segment made safe, never beside the target nor on another drive', () => {
    assert.strictEqual(targetPath('C:\\data', 'CON/aux.txt', 'win32'), 'C:\\data\\_CON\\_aux.txt');
    assert.strictEqual(targetPath('C:\\data', 'a\\..\\..\\x', 'win32'), 'C:\\data\\a_.._.._x');
    assert.strictEqual(targetPath('C:\\data', 'D:/x.txt', 'win32'), 'C:\\data\\D_\\x.txt');
    assert.strictEqual(targetPath('C:\\data', 'run./out /x.', 'win32'), 'C:\\data\\run\\out\\x');
    assert.strictEqual(targetPath('C:\\data', '.../x', 'win32'), 'C:\\data\\_\\x');
  });

  it('tells inside by whole segments, not by a string prefix', () => {
    assert.strictEqual(isInside('/t', '/t/..x', 'linux'), true);
    assert.strictEqual(isInside('/t', '/t/a/../b', 'linux'), true);
    assert.strictEqual(isInside('/t', '/t/../x', 'linux'), false);
    assert.strictEqual(isInside('/t', '/tx/a', 'linux'), false);
    assert.strictEqual(isInside('/t', '/t', 'linux'), false, 'the folder itself is not a file in it');
    assert.strictEqual(isInside('C:\\t', 'D:\\t\\a', 'win32'), false);
    assert.strictEqual(isInside('C:\\t', 'c:\\T\\a', 'win32'), true, 'Windows paths are one whatever their case');
  });

  it('takes two names as one where a case-insensitive disk does: Sample.VCF and sample.vcf, composed and decomposed accents', () => {
    assert.strictEqual(diskKey('run/Sample.VCF'), diskKey('run/sample.vcf'));
    assert.strictEqual(diskKey('caf\u00e9.txt'), diskKey('cafe\u0301.txt'));
    assert.notStrictEqual(diskKey('a.txt'), diskKey('b.txt'));
  });
});
