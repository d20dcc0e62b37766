import * as assert from 'assert';
import { checkEndpoint, endpointLabel, isLoopbackHost, PLATFORMS, platformFor, sameOrigin } from '../../../src/api/endpoint';

describe('endpoint rules: checkEndpoint', () => {
  const accepted: [string, string][] = [
    ['https://api.sbgenomics.com/v2', 'https://api.sbgenomics.com/v2'],
    ['https://api.sbgenomics.com/v2/', 'https://api.sbgenomics.com/v2'],
    ['https://api.sbgenomics.com/v2///', 'https://api.sbgenomics.com/v2'],
    ['  https://cgc-api.sbgenomics.com/v2  ', 'https://cgc-api.sbgenomics.com/v2'],
    ['HTTPS://API.SBGENOMICS.COM/v2', 'https://api.sbgenomics.com/v2'],
    ['https://api.sbgenomics.com:443/v2', 'https://api.sbgenomics.com/v2'],
    ['https://example.org:8443/api/v2/', 'https://example.org:8443/api/v2'],
    ['http://127.0.0.1:8080/v2', 'http://127.0.0.1:8080/v2'],
    ['http://127.4.5.6/v2/', 'http://127.4.5.6/v2'],
    ['http://localhost:3000/v2', 'http://localhost:3000/v2'],
    ['http://LOCALHOST:3000/v2', 'http://localhost:3000/v2'],
    ['http://[::1]:9000/v2', 'http://[::1]:9000/v2'],
  ];
  for (const [input, normalised] of accepted) {
    it(`accepts ${JSON.stringify(input)} as ${normalised}`, () => {
      assert.deepStrictEqual(checkEndpoint(input), { ok: true, endpoint: normalised });
    });
  }

  const refused: [string, string, RegExp][] = [
    ['plain http to a public host', 'http://api.sbgenomics.com/v2', /Plain http is refused for api\.sbgenomics\.com/],
    ['plain http to a host that only starts like loopback', 'http://127.0.0.1.example.com/v2', /Plain http is refused/],
    ['plain http to localhost as a subdomain', 'http://localhost.example.com/v2', /Plain http is refused/],
    ['plain http to a private address', 'http://10.0.0.1/v2', /Plain http is refused/],
    ['ftp', 'ftp://api.sbgenomics.com/v2', /must use https, not ftp/],
    ['file', 'file:///etc/passwd', /must use https, not file/],
    ['ws', 'ws://127.0.0.1/v2', /must use https, not ws/],
    ['a user name and password', 'https://user:pass@api.sbgenomics.com/v2', /user name or password/],
    ['a user name alone', 'https://user@api.sbgenomics.com/v2', /user name or password/],
    ['a password alone', 'https://:password@host', /user name or password/],
    ['a password alone on a known platform', 'https://:secret@api.sbgenomics.com/v2', /user name or password/],
    ['a password on loopback http', 'http://:secret@127.0.0.1:8080/v2', /user name or password/],
    ['a query', 'https://api.sbgenomics.com/v2?x=1', /query or a fragment/],
    ['a fragment', 'https://api.sbgenomics.com/v2#top', /query or a fragment/],
    ['empty', '', /empty/],
    ['blank', '   ', /empty/],
    ['not a URL', 'api.sbgenomics.com/v2', /is not a URL/],
  ];
  for (const [what, input, reason] of refused) {
    it(`refuses ${what}`, () => {
      const result = checkEndpoint(input);
      assert.strictEqual(result.ok, false, `${input} was accepted`);
      if (!result.ok) assert.match(result.reason, reason);
    });
  }

  it('keeps no credentials part: an empty one ("https://:@host") is dropped, never passed on', () => {
    for (const input of ['https://:@api.sbgenomics.com/v2', 'https://@api.sbgenomics.com/v2']) {
      assert.deepStrictEqual(checkEndpoint(input), { ok: true, endpoint: 'https://api.sbgenomics.com/v2' }, input);
    }
  });

  it('knows the loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.255.255.254', '[::1]', '::1']) assert.ok(isLoopbackHost(host), host);
    for (const host of ['128.0.0.1', '127.0.0', '127.0.0.1.nip.io', 'example.com', '0.0.0.0', '[::2]']) assert.ok(!isLoopbackHost(host), host);
  });
});

describe('endpoint rules: sameOrigin', () => {
  const endpoint = 'https://api.sbgenomics.com/v2';
  const cases: [string, boolean][] = [
    ['https://api.sbgenomics.com/v2/tasks?offset=25&limit=25', true],
    ['https://API.sbgenomics.com/v2/tasks', true],
    ['https://api.sbgenomics.com:443/v2/files', true],
    ['https://api.sbgenomics.com/elsewhere', true],
    ['http://api.sbgenomics.com/v2/tasks', false],
    ['https://api.sbgenomics.com:8443/v2/tasks', false],
    ['https://evil.example.com/v2/tasks', false],
    ['https://api.sbgenomics.com.evil.example.com/v2/tasks', false],
    ['https://cgc-api.sbgenomics.com/v2/tasks', false],
    ['not a url', false],
    ['', false],
  ];
  for (const [url, same] of cases) {
    it(`${same ? 'matches' : 'does not match'} ${JSON.stringify(url)}`, () => assert.strictEqual(sameOrigin(url, endpoint), same));
  }
  it('is false when the endpoint itself is unreadable', () => assert.strictEqual(sameOrigin('https://a.b/v2', 'nope'), false));
});

describe('endpoint rules: platformFor and endpointLabel', () => {
  it('finds every known platform by its API base, with or without a trailing slash', () => {
    for (const platform of PLATFORMS) {
      assert.strictEqual(platformFor(platform.apiBase), platform);
      assert.strictEqual(platformFor(platform.apiBase + '/'), platform);
    }
    assert.strictEqual(platformFor('https://cavatica-api.sbgenomics.com/v2')?.id, 'cavatica');
    assert.strictEqual(platformFor('https://api.sb.biodatacatalyst.nhlbi.nih.gov/v2')?.id, 'bdc');
  });

  it('knows no platform for another endpoint', () => {
    assert.strictEqual(platformFor('http://127.0.0.1:8080/v2'), undefined);
    assert.strictEqual(platformFor('https://api.sbgenomics.com/v1'), undefined);
  });

  it('has six platforms, all https, with distinct ids and API bases that pass checkEndpoint unchanged', () => {
    assert.strictEqual(PLATFORMS.length, 6);
    assert.strictEqual(new Set(PLATFORMS.map((p) => p.id)).size, 6);
    for (const p of PLATFORMS) assert.deepStrictEqual(checkEndpoint(p.apiBase), { ok: true, endpoint: p.apiBase });
  });

  it('labels an endpoint with its platform, or its host', () => {
    assert.strictEqual(endpointLabel('https://cgc-api.sbgenomics.com/v2/'), 'Cancer Genomics Cloud');
    assert.strictEqual(endpointLabel('http://127.0.0.1:8080/v2'), '127.0.0.1:8080');
    assert.strictEqual(endpointLabel('junk'), 'junk');
  });
});
