import * as assert from 'assert';
import { formatRemotePath, parentPath, parseRemotePath } from '../../../src/remote/remotePath';

describe('remote/remotePath: the paths of the sevenbridges: file system', () => {
  it('read a project and the names below its root', () => {
    assert.deepStrictEqual(parseRemotePath('/rfranklin/my-project/samples/qc/metrics.tsv'), { project: 'rfranklin/my-project', names: ['samples', 'qc', 'metrics.tsv'] });
    assert.deepStrictEqual(parseRemotePath('/rfranklin/my-project'), { project: 'rfranklin/my-project', names: [] });
    assert.deepStrictEqual(parseRemotePath('/rfranklin/my-project/'), { project: 'rfranklin/my-project', names: [] });
    assert.deepStrictEqual(parseRemotePath('/a/b/name with spaces (1).txt'), { project: 'a/b', names: ['name with spaces (1).txt'] });
  });

  it('name no project with fewer than two parts, an empty part, . or ..', () => {
    for (const bad of ['/', '/rfranklin', '/rfranklin//x', '/a/b/../c', '/a/./b', '']) assert.strictEqual(parseRemotePath(bad), undefined, bad);
  });

  it('are written back as read, and a parent is the path without its last name', () => {
    const path = { project: 'rfranklin/my-project', names: ['samples', 'README.txt'] };
    assert.strictEqual(formatRemotePath(path), '/rfranklin/my-project/samples/README.txt');
    assert.deepStrictEqual(parseRemotePath(formatRemotePath(path)), path);
    assert.deepStrictEqual(parentPath(path), { project: 'rfranklin/my-project', names: ['samples'] });
    assert.strictEqual(parentPath({ project: 'a/b', names: [] }), undefined);
  });
});
