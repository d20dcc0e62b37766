import * as assert from 'assert';
import { accountLabel, diffSessions, endpointScope, endpointsToList, mayCreateSessionFor, type ProviderSession } from '../../../src/auth/providerSessions';

const session = (id: string, token: string, username = 'rfranklin'): ProviderSession => ({
  id,
  accessToken: token,
  account: { id: `${id}#${username}`, label: accountLabel(username, id) },
  scopes: [id],
  fromEnvironment: false,
});

describe('authentication provider sessions', () => {
  it('names an account after its user and platform', () => {
    assert.strictEqual(accountLabel('rfranklin', 'https://cgc-api.sbgenomics.com/v2'), 'rfranklin (Cancer Genomics Cloud)');
    assert.strictEqual(accountLabel('rfranklin', 'https://api.sbgenomics.com/v2'), 'rfranklin (Seven Bridges (AWS US))');
    assert.strictEqual(accountLabel('rfranklin', 'http://127.0.0.1:4567/v2'), 'rfranklin (127.0.0.1:4567)');
  });

  it('looks at the endpoint in use first, then each platform, the environment and remembered ones, each once', () => {
    const listed = endpointsToList(['https://a/v2', 'https://b/v2'], 'https://b/v2/', 'https://c/v2', ['https://a/v2', 'https://d/v2']);
    assert.deepStrictEqual(listed, ['https://b/v2', 'https://a/v2', 'https://c/v2', 'https://d/v2']);
    assert.deepStrictEqual(endpointsToList(['https://a/v2'], 'https://a/v2', undefined, []), ['https://a/v2']);
  });

  it('takes an endpoint from the scopes, normalised as a typed endpoint is, ignoring scopes that are not URLs', () => {
    assert.deepStrictEqual(endpointScope([]), { kind: 'none' });
    assert.deepStrictEqual(endpointScope(['read']), { kind: 'none' });
    assert.deepStrictEqual(endpointScope(['read', 'https://cgc-api.sbgenomics.com/v2/']), { kind: 'endpoint', endpoint: 'https://cgc-api.sbgenomics.com/v2' });
    assert.deepStrictEqual(endpointScope(['HTTPS://CGC-API.sbgenomics.com/v2']), { kind: 'endpoint', endpoint: 'https://cgc-api.sbgenomics.com/v2' }, 'one host, one session');
    assert.deepStrictEqual(endpointScope(['http://127.0.0.1:4567/v2']), { kind: 'endpoint', endpoint: 'http://127.0.0.1:4567/v2' });
  });

  it('refuses a scope that is not an acceptable endpoint, saying why', () => {
    const refused = (scope: string) => {
      const named = endpointScope([scope]);
      assert.strictEqual(named.kind, 'invalid', scope);
      return named.kind === 'invalid' ? named.reason : '';
    };
    assert.match(refused('http://cgc-api.sbgenomics.com/v2'), /Plain http is refused for cgc-api\.sbgenomics\.com/);
    assert.match(refused('https://user:pass@cgc-api.sbgenomics.com/v2'), /must not contain a user name or password/);
    assert.match(refused('https://cgc-api.sbgenomics.com/v2?x=1'), /must not contain a query/);
    assert.match(refused('ftp://cgc-api.sbgenomics.com/v2'), /must use https, not ftp/);
  });

  it('lets a scope open the token prompt only for a known platform, the endpoint in use or a remembered one', () => {
    const platforms = ['https://api.sbgenomics.com/v2', 'https://cgc-api.sbgenomics.com/v2'];
    const may = (endpoint: string) => mayCreateSessionFor(endpoint, platforms, 'http://127.0.0.1:4567/v2', ['https://sb.example.org/v2/']);
    assert.strictEqual(may('https://cgc-api.sbgenomics.com/v2'), true);
    assert.strictEqual(may('http://127.0.0.1:4567/v2'), true, 'the endpoint in use');
    assert.strictEqual(may('https://sb.example.org/v2'), true, 'a custom endpoint that had a token');
    assert.strictEqual(may('https://attacker.example.com/v2'), false);
    assert.strictEqual(may('https://cgc-api.sbgenomics.com.attacker.example.com/v2'), false);
  });

  it('tells added, removed and changed sessions apart', () => {
    const a = session('https://a/v2', 't-a');
    const b = session('https://b/v2', 't-b');
    const c = session('https://c/v2', 't-c');
    const diff = diffSessions([a, b], [session('https://b/v2', 't-b2'), c]);
    assert.deepStrictEqual(diff.added.map((s) => s.id), ['https://c/v2']);
    assert.deepStrictEqual(diff.removed.map((s) => s.id), ['https://a/v2']);
    assert.deepStrictEqual(diff.changed.map((s) => s.id), ['https://b/v2'], 'a new token is a change');
    const sameToken = diffSessions([a], [session('https://a/v2', 't-a', 'other')]);
    assert.deepStrictEqual(sameToken.changed.map((s) => s.id), ['https://a/v2'], 'another user is a change');
    const none = diffSessions([a, b], [a, b]);
    assert.strictEqual(none.added.length + none.removed.length + none.changed.length, 0);
  });
});
