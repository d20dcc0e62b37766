import * as assert from 'assert';
import { ApiError, describeError } from '../../../src/api/errors';
import { Transport, type RequestLogEntry, type TransportOptions } from '../../../src/api/transport';
import { sleepWith } from '../../../src/api/clock';
import { RequestCounter } from '../../support/requestCounter';
import { ENDPOINT, FakeFetch, TOKEN, netError, rateHeaders, rejection, response, type Scripted, type Handler } from './fakes';
import { FakeClock } from '../../support/fakeClock';

const OK = () => response(200, { ok: true });
/** The answer of GET /v2/rate_limit (free). */
const probe = (remaining: number, reset: number, headers: Record<string, string> = {}) =>
  response(200, { rate: { limit: 1000, remaining, reset }, instance_limit: { limit: -1, remaining: 0 } }, headers);

/**
 * Runs `work` while moving the fake clock in steps of `stepMs` whenever nothing else is left to do: a request that
 * hangs times out on the clock, not on real time.
 */
async function onTime<T>(clock: FakeClock, work: Promise<T>, stepMs = 10): Promise<T> {
  let settled = false;
  work.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let steps = 0; !settled && steps < 10_000; steps++) {
    await new Promise((r) => setImmediate(r));
    if (!settled) await clock.tickAsync(stepMs);
  }
  return work;
}

function setup(script: Handler | Scripted[], options: Partial<TransportOptions> = {}) {
  const events: string[] = [];
  const fake = new FakeFetch(script, events);
  const clock = new FakeClock(undefined, { events });
  const log: RequestLogEntry[] = [];
  const transport = new Transport({
    credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }),
    fetch: fake.fetch,
    clock,
    onRequest: (entry) => log.push(entry),
    backoffMs: 100,
    ...options,
  });
  return { transport, fake, clock, log, events };
}

describe('transport: requests', () => {
  it('sends the token as X-SBG-Auth-Token (not X-SVC-Auth-Token), with JSON headers', async () => {
    const { transport, fake } = setup([OK()]);
    const answer = await transport.get<{ ok: boolean }>('user');
    assert.deepStrictEqual(answer.body, { ok: true });
    assert.strictEqual(fake.calls.length, 1);
    const call = fake.calls[0];
    assert.strictEqual(call.url, 'https://api.sbgenomics.com/v2/user');
    assert.strictEqual(call.method, 'GET');
    assert.strictEqual(call.headers['X-SBG-Auth-Token'], TOKEN);
    assert.ok(!Object.keys(call.headers).some((name) => /svc/i.test(name)), Object.keys(call.headers).join());
    assert.strictEqual(call.headers.Accept, 'application/json');
    assert.strictEqual(call.body, undefined);
  });

  it('redacts the token from a 2xx answer once decoded, wherever the platform echoes it', async () => {
    const escaped = [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const { transport } = setup([response(200, `{"href": "https://x/v2/async/files/copy/1?t=${escaped}", "items": ["${TOKEN}"], "${TOKEN}": 1}`)]);
    const answer = await transport.post<Record<string, unknown>>('async/files/copy', { items: [] });
    assert.ok(!JSON.stringify(answer.body).includes(TOKEN), JSON.stringify(answer.body));
    assert.deepStrictEqual(answer.body, { href: 'https://x/v2/async/files/copy/1?t=(the token)', items: ['(the token)'], '(the token)': 1 });
  });

  it('sends a POST body as JSON with its content type', async () => {
    const { transport, fake } = setup([OK()]);
    await transport.post('async/files/copy', { items: [{ file: 'a' }] });
    assert.strictEqual(fake.calls[0].method, 'POST');
    assert.strictEqual(fake.calls[0].headers['Content-Type'], 'application/json');
    assert.deepStrictEqual(JSON.parse(fake.calls[0].body ?? ''), { items: [{ file: 'a' }] });
  });

  it('joins paths and query values (leaving out undefined and empty ones)', async () => {
    const { transport, fake } = setup([OK()]);
    await transport.get('/tasks/', { query: { status: 'FAILED', offset: 0, limit: 25, parent: undefined, project: '' } });
    const url = new URL(fake.calls[0].url);
    assert.strictEqual(url.pathname, '/v2/tasks/');
    assert.deepStrictEqual([...url.searchParams], [['status', 'FAILED'], ['offset', '0'], ['limit', '25']]);
  });

  it('reads the credentials on every request, so a new token or endpoint applies at once', async () => {
    let credentials = { endpoint: ENDPOINT, token: 'first' };
    const { transport, fake } = setup([OK()], { credentials: async () => credentials });
    await transport.get('user');
    credentials = { endpoint: 'https://cgc-api.sbgenomics.com/v2/', token: 'second' };
    await transport.get('user');
    assert.deepStrictEqual(
      fake.calls.map((c) => [c.url, c.headers['X-SBG-Auth-Token']]),
      [
        ['https://api.sbgenomics.com/v2/user', 'first'],
        ['https://cgc-api.sbgenomics.com/v2/user', 'second'],
      ],
    );
  });

  it('without credentials: signedOut, and no request is made', async () => {
    const { transport, fake } = setup([OK()], { credentials: async () => undefined });
    const error = await rejection(transport.get('user'));
    assert.strictEqual(error.kind, 'signedOut');
    assert.ok(error.isUnauthorized);
    assert.strictEqual(fake.calls.length, 0);
  });

  it('with an endpoint that is not acceptable: config, and no request is made', async () => {
    for (const endpoint of ['http://api.sbgenomics.com/v2', 'ftp://x/v2', 'https://u:p@x/v2', 'nonsense']) {
      const { transport, fake } = setup([OK()], { credentials: async () => ({ endpoint, token: TOKEN }) });
      const error = await rejection(transport.get('user'));
      assert.strictEqual(error.kind, 'config', endpoint);
      assert.ok(!error.message.includes(TOKEN));
      assert.strictEqual(fake.calls.length, 0, endpoint);
    }
  });

  it('returns an empty 2xx body as undefined', async () => {
    const { transport } = setup([response(204, '')]);
    const answer = await transport.get('user');
    assert.strictEqual(answer.body, undefined);
    assert.strictEqual(answer.status, 204);
  });
});

describe('transport: error mapping', () => {
  it('maps the platform error body to status, code, message, more_info and the request ID', async () => {
    const { transport, fake } = setup([
      response(
        404,
        { status: 404, code: 5002, message: 'Requested file does not exist.', more_info: 'https://docs.sevenbridges.com/docs/api-status-codes' },
        { 'X-Request-Id': 'req-404' },
      ),
    ]);
    const error = await rejection(transport.get('files/567890abc8a5639cc6722063'));
    assert.ok(error instanceof ApiError);
    assert.strictEqual(error.kind, 'http');
    assert.strictEqual(error.status, 404);
    assert.strictEqual(error.code, 5002);
    assert.strictEqual(error.message, 'Requested file does not exist.');
    assert.strictEqual(error.moreInfo, 'https://docs.sevenbridges.com/docs/api-status-codes');
    assert.strictEqual(error.requestId, 'req-404');
    assert.strictEqual(error.method, 'GET');
    assert.strictEqual(error.path, '/v2/files/567890abc8a5639cc6722063');
    assert.strictEqual(error.maybeDelivered, false);
    assert.strictEqual(fake.calls.length, 1, 'a 4xx is not repeated');
    assert.match(describeError(error), /Requested file does not exist\. \(HTTP 404, code 5002\)\./);
  });

  it('a non-JSON error body gives a message with the status and the text', async () => {
    const { transport } = setup([response(400, '  Bad request\n from the proxy  ')]);
    const error = await rejection(transport.get('user'));
    assert.strictEqual(error.kind, 'http');
    assert.strictEqual(error.status, 400);
    assert.strictEqual(error.code, undefined);
    assert.strictEqual(error.message, 'HTTP 400: Bad request from the proxy');
  });

  it('an HTML gateway page on a 502 (after the repeats) keeps its status and text', async () => {
    const { transport, fake } = setup([response(502, '<html><body>Bad Gateway</body></html>')], { maxRetries: 1 });
    const error = await rejection(transport.get('user'));
    assert.strictEqual(error.status, 502);
    assert.strictEqual(error.message, 'HTTP 502: <html><body>Bad Gateway</body></html>');
    assert.strictEqual(fake.calls.length, 2);
  });

  it('an empty error body gives the bare status', async () => {
    const { transport } = setup([response(403, '')]);
    const error = await rejection(transport.get('user'));
    assert.strictEqual(error.message, 'HTTP 403');
  });

  it('a 401 is unauthorized and not repeated', async () => {
    const { transport, fake } = setup([response(401, { status: 401, code: 90001, message: 'Unauthorized' })]);
    const error = await rejection(transport.get('user'));
    assert.ok(error.isUnauthorized);
    assert.strictEqual(fake.calls.length, 1);
    assert.match(describeError(error), /rejected the authentication token/);
  });

  it('a 200 whose body is not JSON is malformed (a GET is tried again, then given up)', async () => {
    const { transport, fake } = setup([response(200, '<html>login</html>', { 'X-Request-Id': 'r1' })], { maxRetries: 2 });
    const error = await rejection(transport.get('user'));
    assert.strictEqual(error.kind, 'malformed');
    assert.strictEqual(error.status, 200);
    assert.strictEqual(error.requestId, 'r1');
    assert.strictEqual(fake.calls.length, 3);
  });

  it('a network error is kind network with the system code', async () => {
    const { transport, fake } = setup([netError('ENOTFOUND')], { maxRetries: 0 });
    const error = await rejection(transport.get('user'));
    assert.strictEqual(error.kind, 'network');
    assert.strictEqual(error.message, 'ENOTFOUND');
    assert.strictEqual(error.status, undefined);
    assert.strictEqual(fake.calls.length, 1);
    assert.match(describeError(error), /Cannot reach the platform \(ENOTFOUND\)/);
  });

  it('a network error on a GET is repeated with growing back-off, then succeeds', async () => {
    const { transport, fake, clock, log } = setup([netError('ECONNRESET'), netError('ECONNRESET'), OK()]);
    const answer = await transport.get<{ ok: boolean }>('user');
    assert.deepStrictEqual(answer.body, { ok: true });
    assert.strictEqual(fake.calls.length, 3);
    assert.strictEqual(clock.sleeps.length, 2);
    assert.ok(clock.sleeps[0] >= 100 && clock.sleeps[0] < 125, String(clock.sleeps));
    assert.ok(clock.sleeps[1] >= 200 && clock.sleeps[1] < 225, String(clock.sleeps));
    assert.deepStrictEqual(log.map((e) => e.attempt), [1, 2, 3], 'three requests sent, two of them repeats');
  });

  it('a 500 on a GET is repeated', async () => {
    const { transport, fake } = setup([response(500, { status: 500, code: 90004, message: 'Unexpected' }), OK()]);
    assert.deepStrictEqual((await transport.get('user')).body, { ok: true });
    assert.strictEqual(fake.calls.length, 2);
  });

  it('a 500 on a GET is given up after maxRetries repeats', async () => {
    const { transport, fake, clock } = setup([response(500, 'oops')], { maxRetries: 3 });
    const error = await rejection(transport.get('user'));
    assert.strictEqual(error.status, 500);
    assert.strictEqual(fake.calls.length, 4);
    assert.strictEqual(clock.sleeps.length, 3);
  });
});

describe('transport: rate limit', () => {
  it('remembers the X-RateLimit-* headers of the last answer', async () => {
    const { transport, clock } = setup([response(200, {}, rateHeaders(990, 1_800_000_000)), response(200, {}, rateHeaders(989, 1_800_000_001, 1000))]);
    assert.strictEqual(transport.rateLimit, undefined);
    await transport.get('user');
    assert.deepStrictEqual(transport.rateLimit, { limit: 1000, remaining: 990, reset: 1_800_000_000 });
    await transport.get('user');
    assert.deepStrictEqual(transport.rateLimit, { limit: 1000, remaining: 989, reset: 1_800_000_001 });
    assert.strictEqual(clock.sleeps.length, 0);
  });

  it('keeps the last state when an answer has no or unreadable rate-limit headers', async () => {
    const { transport } = setup([response(200, {}, rateHeaders(5, 1_800_000_000)), response(200, {}), response(200, {}, rateHeaders(Number.NaN, 1))]);
    await transport.get('a');
    await transport.get('b');
    await transport.get('c');
    assert.deepStrictEqual(transport.rateLimit, { limit: 1000, remaining: 5, reset: 1_800_000_000 });
  });

  it('a missing or empty X-RateLimit-Remaining is not read as "nothing left"', async () => {
    const clock = new FakeClock();
    const reset = String(clock.nowSeconds + 100);
    const fake = new FakeFetch([
      response(200, {}, { 'X-RateLimit-Reset': reset }),
      response(200, {}, { 'X-RateLimit-Limit': '1000', 'X-RateLimit-Remaining': '', 'X-RateLimit-Reset': reset }),
      OK(),
    ]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
    await transport.get('a');
    await transport.get('b');
    await transport.get('c');
    assert.deepStrictEqual(clock.sleeps, []);
    assert.strictEqual(transport.rateLimit, undefined);
  });

  it('a 429 on a GET waits until X-RateLimit-Reset, then repeats and succeeds', async () => {
    const events: string[] = [];
    const clock = new FakeClock(undefined, { events });
    const reset = clock.nowSeconds + 42;
    const fake = new FakeFetch([response(429, { status: 429, code: 1000, message: 'Rate limit exceeded' }, rateHeaders(0, reset)), response(200, { ok: 1 }, rateHeaders(999, reset + 300))], events);
    const counter = new RequestCounter();
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock, backoffMs: 100, onRequest: counter.hook() });
    const before = clock.now();
    const answer = await transport.get<{ ok: number }>('tasks');
    assert.deepStrictEqual(answer.body, { ok: 1 });
    assert.strictEqual(fake.calls.length, 2);
    assert.strictEqual(clock.sleeps.length, 1, events.join(' | '));
    const expected = reset * 1000 - before;
    assert.ok(clock.sleeps[0] >= expected && clock.sleeps[0] <= expected + 2_000, `slept ${clock.sleeps[0]}, reset in ${expected}`);
    assert.ok(clock.now() >= reset * 1000, 'the repeat went out after the reset');
    assert.strictEqual(counter.rateLimitWaits, 1);
  });

  it('a 429 whose reset is beyond maxRateLimitWaitMs is thrown with resetAt, without waiting', async () => {
    const clock = new FakeClock();
    const reset = clock.nowSeconds + 600;
    const fake = new FakeFetch([response(429, { status: 429, code: 1000, message: 'Rate limit exceeded' }, rateHeaders(0, reset))]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock, maxRateLimitWaitMs: 60_000 });
    const error = await rejection(transport.get('tasks'));
    assert.ok(error.isRateLimited);
    assert.strictEqual(error.status, 429);
    assert.strictEqual(error.code, 1000);
    assert.strictEqual(error.resetAt, reset);
    assert.strictEqual(fake.calls.length, 1);
    assert.deepStrictEqual(clock.sleeps, []);
    assert.match(describeError(error), /rate limit .* is used up\. It resets at/);
  });

  it('remaining=0 on the previous answer: the next request waits for the reset BEFORE sending', async () => {
    const events: string[] = [];
    const clock = new FakeClock(undefined, { events });
    const reset = clock.nowSeconds + 20;
    const fake = new FakeFetch(
      [response(200, { n: 1 }, rateHeaders(0, reset)), probe(0, reset), response(200, { n: 2 }, rateHeaders(999, reset + 300))],
      events,
    );
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
    await transport.get('user');
    const before = clock.now();
    const answer = await transport.get<{ n: number }>('tasks');
    assert.deepStrictEqual(answer.body, { n: 2 });
    assert.strictEqual(fake.calls.length, 3, 'no 429 spent: one free probe, then the request');
    assert.deepStrictEqual(events, ['fetch GET /v2/user', 'fetch GET /v2/rate_limit', events[2], 'fetch GET /v2/tasks']);
    assert.match(events[2], /^sleep /);
    const expected = reset * 1000 - before;
    assert.ok(clock.sleeps[0] >= expected && clock.sleeps[0] <= expected + 2_000, `slept ${clock.sleeps[0]}, reset in ${expected}`);
  });

  it('remaining=0 and a reset beyond the longest wait: refused with the 429 and resetAt, nothing sent', async () => {
    const clock = new FakeClock();
    const reset = clock.nowSeconds + 3_600;
    const fake = new FakeFetch([response(200, {}, rateHeaders(0, reset)), probe(0, reset)]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock, maxRateLimitWaitMs: 60_000 });
    await transport.get('user');
    const error = await rejection(transport.get('tasks'));
    assert.ok(error.isRateLimited);
    assert.strictEqual(error.resetAt, reset);
    assert.deepStrictEqual(fake.calls.map((c) => new URL(c.url).pathname), ['/v2/user', '/v2/rate_limit'], 'only the free probe was sent');
  });

  it('remaining=0 with a reset already past: no wait', async () => {
    const clock = new FakeClock();
    const fake = new FakeFetch([response(200, {}, rateHeaders(0, clock.nowSeconds - 5))]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
    await transport.get('user');
    await transport.get('user');
    assert.deepStrictEqual(clock.sleeps, []);
    assert.strictEqual(fake.calls.length, 2);
  });

  it('remaining=0 on one endpoint does not hold back requests to another', async () => {
    const clock = new FakeClock();
    let endpoint = ENDPOINT;
    const fake = new FakeFetch([response(200, {}, rateHeaders(0, clock.nowSeconds + 100)), response(200, {})]);
    const transport = new Transport({ credentials: async () => ({ endpoint, token: TOKEN }), fetch: fake.fetch, clock });
    await transport.get('user');
    endpoint = 'https://cgc-api.sbgenomics.com/v2';
    await transport.get('user');
    assert.deepStrictEqual(clock.sleeps, []);
  });

  it('a 429 on a POST is not repeated and was not delivered', async () => {
    const clock = new FakeClock();
    const fake = new FakeFetch([response(429, { status: 429, code: 1000, message: 'Rate limit exceeded' }, rateHeaders(0, clock.nowSeconds + 10)), OK()]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
    const error = await rejection(transport.post('async/files/copy', { items: [] }));
    assert.ok(error.isRateLimited);
    assert.strictEqual(error.maybeDelivered, false);
    assert.strictEqual(fake.calls.length, 1);
    assert.deepStrictEqual(clock.sleeps, []);
  });

  it('cancellation during a rate-limit wait after a 429: cancelled, no repeat', async () => {
    const clock = new FakeClock();
    clock.hold = true;
    const controller = new AbortController();
    clock.onSleep = () => setImmediate(() => controller.abort());
    const fake = new FakeFetch([response(429, { status: 429, code: 1000, message: 'x' }, rateHeaders(0, clock.nowSeconds + 60)), OK()]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
    const error = await rejection(transport.get('tasks', { signal: controller.signal }));
    assert.strictEqual(error.kind, 'cancelled');
    assert.strictEqual(fake.calls.length, 1);
    assert.strictEqual(clock.sleeps.length, 1);
  });

  it('cancellation during the wait before sending (remaining=0): cancelled, nothing more sent', async () => {
    const clock = new FakeClock();
    const fake = new FakeFetch([response(200, {}, rateHeaders(0, clock.nowSeconds + 60)), probe(0, clock.nowSeconds + 60), OK()]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
    await transport.get('user');
    clock.hold = true;
    const controller = new AbortController();
    clock.onSleep = () => setImmediate(() => controller.abort());
    const error = await rejection(transport.get('tasks', { signal: controller.signal }));
    assert.strictEqual(error.kind, 'cancelled');
    assert.strictEqual(fake.calls.length, 2, 'the probe, and nothing after the cancelled wait');
  });
});

describe('transport: the rate limit and writes (issue 11)', () => {
  it('one answer with Remaining 0 and a far-off reset does not refuse later calls: the free probe says what is left', async () => {
    const clock = new FakeClock();
    const fake = new FakeFetch([response(200, {}, rateHeaders(0, clock.nowSeconds + 3_600)), probe(998, clock.nowSeconds + 200), OK(), OK()]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
    await transport.get('user');
    await transport.get('tasks');
    await transport.post('async/files/copy', { items: [] });
    assert.deepStrictEqual(
      fake.calls.map((c) => `${c.method} ${new URL(c.url).pathname}`),
      ['GET /v2/user', 'GET /v2/rate_limit', 'GET /v2/tasks', 'POST /v2/async/files/copy'],
    );
    assert.deepStrictEqual(clock.sleeps, []);
  });

  it('a POST is never held waiting for the reset: refused at once as not delivered, after the free probe', async () => {
    const clock = new FakeClock();
    const reset = clock.nowSeconds + 30;
    const fake = new FakeFetch([response(200, {}, rateHeaders(0, reset)), probe(0, reset), OK()]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
    await transport.get('user');
    const error = await rejection(transport.post('async/files/copy', { items: [] }));
    assert.ok(error.isRateLimited);
    assert.strictEqual(error.maybeDelivered, false);
    assert.strictEqual(error.resetAt, reset);
    assert.ok(error.untilResetMs! >= 29_000 && error.untilResetMs! <= 30_000, `the owner of the write waits ${error.untilResetMs} ms`);
    assert.deepStrictEqual(clock.sleeps, [], 'no wait');
    assert.ok(!fake.calls.some((c) => c.method === 'POST'), 'the POST was not sent');
  });

  it('a local clock one hour slow waits by the server clock (Date header), not an hour', async () => {
    const clock = new FakeClock();
    const serverNow = clock.now() + 3_600_000;
    const reset = Math.floor(serverNow / 1000) + 20;
    const date = { Date: new Date(serverNow).toUTCString() };
    const fake = new FakeFetch([response(200, {}, { ...rateHeaders(0, reset), ...date }), probe(0, reset, date), OK()]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
    await transport.get('user');
    await transport.get('tasks');
    assert.strictEqual(clock.sleeps.length, 1);
    assert.ok(clock.sleeps[0] >= 19_000 && clock.sleeps[0] <= 22_000, `waited ${clock.sleeps[0]} ms for a reset 20 s away on the server's clock`);
  });

  it('a 429 on a POST says how long until the reset on the server clock, whatever this clock says', async () => {
    const clock = new FakeClock();
    const serverNow = clock.now() + 3_600_000;
    const reset = Math.floor(serverNow / 1000) + 40;
    const fake = new FakeFetch([response(429, { status: 429, code: 1000, message: 'Rate limit exceeded' }, { ...rateHeaders(0, reset), Date: new Date(serverNow).toUTCString() })]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
    const error = await rejection(transport.post('async/files/copy', { items: [] }));
    assert.ok(error.untilResetMs! >= 39_000 && error.untilResetMs! <= 41_000, `until the reset: ${error.untilResetMs} ms, not an hour and 40 s`);
  });

  it('a 429 after a clock one hour fast is repeated after the server-clock wait, not at once and not never', async () => {
    const clock = new FakeClock();
    const serverNow = clock.now() - 3_600_000;
    const reset = Math.floor(serverNow / 1000) + 10;
    const fake = new FakeFetch([
      response(429, { status: 429, code: 1000, message: 'Rate limit exceeded' }, { ...rateHeaders(0, reset), Date: new Date(serverNow).toUTCString() }),
      OK(),
    ]);
    const transport = new Transport({ credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }), fetch: fake.fetch, clock });
    await transport.get('tasks');
    assert.ok(clock.sleeps[0] >= 9_000 && clock.sleeps[0] <= 12_000, `waited ${clock.sleeps[0]} ms`);
  });

  it('a plain 503 (from a proxy, no code 0) on a POST may have been processed; maintenance (code 0) was not', async () => {
    const plain = setup([response(503, '<html>Service Unavailable</html>')]);
    const proxyError = await rejection(plain.transport.post('async/files/copy', { items: [] }));
    assert.strictEqual(proxyError.isMaintenance, false);
    assert.strictEqual(proxyError.maybeDelivered, true);
    const maintenance = setup([response(503, { status: 503, code: 0, message: 'Maintenance' })]);
    const maintenanceError = await rejection(maintenance.transport.post('async/files/copy', { items: [] }));
    assert.strictEqual(maintenanceError.isMaintenance, true);
    assert.strictEqual(maintenanceError.maybeDelivered, false);
  });

  it('an error page that echoes the request headers never carries the token into the error', async () => {
    const echo = `<pre>X-SBG-Auth-Token: ${TOKEN}</pre>`;
    const { transport } = setup([response(502, echo), response(400, { status: 400, code: 90000, message: `bad header ${TOKEN}` })], { maxRetries: 0 });
    for (const error of [await rejection(transport.post('async/files/copy', {})), await rejection(transport.get('user'))]) {
      for (const text of [error.message, describeError(error), String(error.stack)]) assert.ok(!text.includes(TOKEN), text);
      assert.match(error.message, /\(the token\)/);
    }
  });

  it('sends with the credentials it is given, and no others (a write bound to its account)', async () => {
    const { transport, fake } = setup([OK()], { credentials: async () => ({ endpoint: ENDPOINT, token: 'someone-else' }) });
    await transport.post('async/files/copy', {}, { credentials: { endpoint: ENDPOINT, token: TOKEN } });
    assert.strictEqual(fake.calls[0].headers['X-SBG-Auth-Token'], TOKEN);
  });
});

describe('transport: maintenance', () => {
  const maintenance = () => response(503, { status: 503, code: 0, message: 'Platform is under maintenance.' });

  it('a 503 with code 0 on a GET backs off and repeats until the platform is back', async () => {
    const { transport, fake, clock } = setup([maintenance(), maintenance(), OK()]);
    assert.deepStrictEqual((await transport.get('user')).body, { ok: true });
    assert.strictEqual(fake.calls.length, 3);
    assert.strictEqual(clock.sleeps.length, 2);
    assert.ok(clock.sleeps[1] > clock.sleeps[0], `back-off grows: ${clock.sleeps}`);
  });

  it('gives up after maxRetries repeats with isMaintenance, the waits growing', async () => {
    const { transport, fake, clock } = setup([maintenance()], { maxRetries: 3, backoffMs: 100 });
    const error = await rejection(transport.get('user'));
    assert.ok(error.isMaintenance);
    assert.strictEqual(error.status, 503);
    assert.strictEqual(error.code, 0);
    assert.strictEqual(fake.calls.length, 4);
    assert.strictEqual(clock.sleeps.length, 3);
    clock.sleeps.forEach((ms, i) => {
      const base = 100 * 2 ** i * 4;
      assert.ok(ms >= base && ms < base + 25, `wait ${i}: ${ms}, expected about ${base}`);
    });
    assert.match(describeError(error), /under maintenance/);
  });

  it('maintenance on a POST: not repeated, not delivered', async () => {
    const { transport, fake } = setup([maintenance(), OK()]);
    const error = await rejection(transport.post('async/files/copy', { items: [] }));
    assert.ok(error.isMaintenance);
    assert.strictEqual(error.maybeDelivered, false);
    assert.strictEqual(fake.calls.length, 1);
  });

  it('cancellation during the maintenance back-off: cancelled', async () => {
    const { transport, fake, clock } = setup([maintenance(), OK()]);
    clock.hold = true;
    const controller = new AbortController();
    clock.onSleep = () => setImmediate(() => controller.abort());
    const error = await rejection(transport.get('user', { signal: controller.signal }));
    assert.strictEqual(error.kind, 'cancelled');
    assert.strictEqual(fake.calls.length, 1);
  });
});

describe('transport: a POST is never repeated', () => {
  const cases: [string, Scripted, Partial<ApiError>][] = [
    ['a 500', response(500, { status: 500, code: 90004, message: 'Unexpected error' }), { kind: 'http', status: 500, maybeDelivered: true }],
    ['a 502', response(502, 'Bad Gateway'), { kind: 'http', status: 502, maybeDelivered: true }],
    ['a connection reset', netError('ECONNRESET'), { kind: 'network', maybeDelivered: true }],
    ['a socket hang up', Object.assign(new Error('socket hang up'), {}), { kind: 'network', maybeDelivered: true }],
    ['a 200 that is not JSON', response(200, 'not json'), { kind: 'malformed', maybeDelivered: true }],
    ['a refused connection', netError('ECONNREFUSED'), { kind: 'network', maybeDelivered: false }],
    ['an unknown host', netError('ENOTFOUND'), { kind: 'network', maybeDelivered: false }],
    ['a 400', response(400, { status: 400, code: 10230, message: 'Sources empty' }), { kind: 'http', status: 400, code: 10230, maybeDelivered: false }],
    ['a 429', response(429, { status: 429, code: 1000, message: 'Rate limit exceeded' }), { kind: 'http', status: 429, maybeDelivered: false }],
  ];
  for (const [what, answer, expected] of cases) {
    it(`${what}: exactly one fetch call, maybeDelivered ${expected.maybeDelivered}`, async () => {
      const { transport, fake, clock, log } = setup([answer, OK()]);
      const error = await rejection(transport.post('async/files/copy', { items: [{ file: '567890abc8a5639cc6722063', project: 'a/b' }] }));
      for (const [key, value] of Object.entries(expected)) assert.strictEqual((error as unknown as Record<string, unknown>)[key], value, `${key}`);
      assert.strictEqual(error.method, 'POST');
      assert.strictEqual(fake.calls.length, 1);
      assert.deepStrictEqual(clock.sleeps, []);
      assert.deepStrictEqual(log.map((e) => e.attempt), [1], 'not repeated');
    });
  }

  it('a timeout: exactly one fetch call, maybeDelivered true', async () => {
    const { transport, fake, clock } = setup(['hang', OK()], { timeoutMs: 50 });
    const error = await rejection(onTime(clock, transport.post('async/files/copy', { items: [] })));
    assert.strictEqual(error.kind, 'timeout');
    assert.strictEqual(error.maybeDelivered, true);
    assert.strictEqual(fake.calls.length, 1);
  });
});

describe('transport: timeouts and cancellation', () => {
  it('a fetch that never answers times out after timeoutMs (on the clock)', async () => {
    const { transport, fake, clock } = setup(['hang'], { timeoutMs: 50, maxRetries: 0 });
    const started = clock.now();
    const error = await rejection(onTime(clock, transport.get('user')));
    assert.strictEqual(error.kind, 'timeout');
    assert.strictEqual(error.maybeDelivered, false);
    assert.strictEqual(clock.now() - started, 50);
    assert.strictEqual(fake.calls.length, 1);
    assert.ok(fake.calls[0].signal.aborted, 'the fetch was aborted');
    assert.match(describeError(error), /did not answer in time/);
  });

  it('a GET that times out is tried again', async () => {
    const { transport, fake, clock } = setup(['hang', OK()], { timeoutMs: 50 });
    assert.deepStrictEqual((await onTime(clock, transport.get('user'))).body, { ok: true });
    assert.strictEqual(fake.calls.length, 2);
  });

  it('the timeout covers a body that never arrives', async () => {
    const slowBody = { status: 200, headers: { get: () => null }, text: () => new Promise<string>(() => undefined) };
    let signal: AbortSignal | undefined;
    const { transport, clock } = setup(
      (call) => {
        signal = call.signal;
        return {
          ...slowBody,
          text: () => new Promise<string>((_r, reject) => call.signal.addEventListener('abort', () => reject(new Error('aborted')))),
        };
      },
      { timeoutMs: 50, maxRetries: 0 },
    );
    const error = await rejection(onTime(clock, transport.get('user')));
    assert.strictEqual(error.kind, 'timeout');
    assert.ok(signal?.aborted);
  });

  it('aborting the caller signal during a request: cancelled, not repeated', async () => {
    const controller = new AbortController();
    const { transport, fake } = setup((_call, i) => {
      if (i === 0) setImmediate(() => controller.abort());
      return 'hang';
    });
    const error = await rejection(transport.get('user', { signal: controller.signal }));
    assert.strictEqual(error.kind, 'cancelled');
    assert.ok(error.isCancelled);
    assert.strictEqual(fake.calls.length, 1);
  });

  it('an already aborted signal: cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const { transport } = setup([OK()]);
    const error = await rejection(transport.get('user', { signal: controller.signal }));
    assert.strictEqual(error.kind, 'cancelled');
  });

  it('a POST cancelled in flight may have been delivered', async () => {
    const controller = new AbortController();
    const { transport, fake } = setup(() => {
      setImmediate(() => controller.abort());
      return 'hang';
    });
    const error = await rejection(transport.post('async/files/copy', { items: [] }, { signal: controller.signal }));
    assert.strictEqual(error.kind, 'cancelled');
    assert.strictEqual(error.maybeDelivered, true);
    assert.strictEqual(fake.calls.length, 1);
  });

  it('sleepWith (the real clock) resolves, and rejects as cancelled on abort', async () => {
    await sleepWith(setTimeout, clearTimeout, 1);
    const aborted = new AbortController();
    aborted.abort();
    assert.strictEqual((await rejection(sleepWith(setTimeout, clearTimeout, 10_000, aborted.signal))).kind, 'cancelled');
    const later = new AbortController();
    let cleared = false;
    const pending = sleepWith(
      (fn, ms) => setTimeout(fn, ms),
      (handle) => {
        cleared = true;
        clearTimeout(handle);
      },
      10_000,
      later.signal,
    );
    later.abort();
    assert.strictEqual((await rejection(pending)).kind, 'cancelled');
    assert.ok(cleared, 'the timer was cleared');
  });
});

describe('transport: links and paging', () => {
  const page = (items: unknown[], next: string | undefined, total = 5) =>
    response(200, { href: 'x', items, links: next ? [{ href: next, rel: 'next', method: 'GET' }] : [] }, { 'X-Total-Matching-Query': String(total) });

  it('reads a page: items, total and next link', async () => {
    const { transport } = setup([page([{ id: 'a' }, { id: 'b' }], `${ENDPOINT}/tasks?offset=2&limit=2`)]);
    const result = await transport.page<{ id: string }>('tasks', { query: { limit: 2 } });
    assert.deepStrictEqual(result, { items: [{ id: 'a' }, { id: 'b' }], total: 5, next: `${ENDPOINT}/tasks?offset=2&limit=2` });
  });

  it('a page without items is malformed; a missing or bad total is undefined', async () => {
    const { transport } = setup([response(200, { href: 'x' }), response(200, { items: [] }, { 'X-Total-Matching-Query': 'many' })], { maxRetries: 0 });
    assert.strictEqual((await rejection(transport.page('tasks'))).kind, 'malformed');
    assert.strictEqual((await transport.page('tasks')).total, undefined);
  });

  it('all(): asks for 100 a page and follows next links to the end', async () => {
    const { transport, fake } = setup([
      page([{ id: 1 }, { id: 2 }], `${ENDPOINT}/tasks?offset=2&limit=2&status=FAILED`),
      page([{ id: 3 }, { id: 4 }], `${ENDPOINT}/tasks?offset=4&limit=2&status=FAILED`),
      page([{ id: 5 }], undefined),
    ]);
    const ids: unknown[] = [];
    for await (const p of transport.all<{ id: number }>('tasks', { query: { status: 'FAILED' } })) ids.push(...p.items.map((i) => i.id));
    assert.deepStrictEqual(ids, [1, 2, 3, 4, 5]);
    assert.strictEqual(new URL(fake.calls[0].url).searchParams.get('limit'), '100');
    assert.strictEqual(new URL(fake.calls[0].url).searchParams.get('status'), 'FAILED');
    assert.deepStrictEqual(fake.calls.slice(1).map((c) => c.url), [`${ENDPOINT}/tasks?offset=2&limit=2&status=FAILED`, `${ENDPOINT}/tasks?offset=4&limit=2&status=FAILED`]);
  });

  it('all(): stops when a next link repeats itself', async () => {
    const loop = `${ENDPOINT}/tasks?offset=2`;
    const { transport, fake } = setup([page([{ id: 1 }], loop), page([{ id: 2 }], loop)]);
    const pages: unknown[] = [];
    for await (const p of transport.all('tasks')) pages.push(p);
    assert.strictEqual(pages.length, 2);
    assert.strictEqual(fake.calls.length, 2);
  });

  for (const [what, evil] of [
    ['another host', 'https://evil.example.com/v2/tasks?offset=2'],
    ['a look-alike host', 'https://api.sbgenomics.com.evil.example.com/v2/tasks?offset=2'],
    ['plain http on the same host', 'http://api.sbgenomics.com/v2/tasks?offset=2'],
    ['another port', 'https://api.sbgenomics.com:8443/v2/tasks?offset=2'],
  ] as const) {
    it(`a next link to ${what} is refused and the token never goes there`, async () => {
      const { transport, fake } = setup([page([{ id: 1 }], evil), page([{ id: 2 }], undefined)]);
      const seen: unknown[] = [];
      const error = await rejection(
        (async () => {
          for await (const p of transport.all<{ id: number }>('tasks')) seen.push(...p.items.map((i) => i.id));
        })(),
      );
      assert.strictEqual(error.kind, 'malformed');
      assert.match(error.message, /refused to follow a link to another host/);
      assert.deepStrictEqual(seen, [1]);
      assert.strictEqual(fake.calls.length, 1);
      for (const call of fake.calls) assert.strictEqual(new URL(call.url).origin, 'https://api.sbgenomics.com');
      assert.ok(!fake.calls.some((c) => c.url.includes('evil')));
      // Asked directly, too.
      const direct = await rejection(transport.page(evil));
      assert.strictEqual(direct.kind, 'malformed');
      assert.strictEqual(fake.calls.length, 1);
    });
  }

  it('a protocol-relative or blank-prefixed link stays on the endpoint', async () => {
    const { transport, fake } = setup([page([], undefined)]);
    await transport.page('//evil.example.com/v2/tasks');
    await transport.page(' https://evil.example.com/v2/tasks');
    for (const call of fake.calls) assert.strictEqual(new URL(call.url).host, 'api.sbgenomics.com');
  });
});

describe('transport: the request log', () => {
  it('gets method, path, status, duration and request ID, and never the token', async () => {
    const clock = new FakeClock();
    const log: RequestLogEntry[] = [];
    const fake = new FakeFetch((call, i) => {
      void clock.sleep(7); // time passes while the request is in flight
      if (i === 0) return response(200, { ok: 1 }, { 'X-Request-Id': 'req-1' });
      if (i === 1) return response(500, { message: 'boom' }, { 'X-Request-Id': 'req-2' });
      if (i === 2) return netError('ECONNRESET');
      if (i === 3) return response(400, `token was ${call.headers['X-SBG-Auth-Token'] ? 'set' : 'missing'}`, { 'X-Request-Id': 'req-4' });
      return OK();
    });
    const transport = new Transport({
      credentials: async () => ({ endpoint: ENDPOINT, token: TOKEN }),
      fetch: fake.fetch,
      clock,
      onRequest: (entry) => log.push(entry),
      maxRetries: 0,
    });
    await transport.get('user', { query: { fields: 'username' } });
    const errors = [
      await rejection(transport.get('tasks')),
      await rejection(transport.post('async/files/copy', { items: [] })),
      await rejection(transport.get('files')),
    ];
    assert.deepStrictEqual(
      log.map((e) => [e.method, e.path, e.status, e.requestId, e.attempt]),
      [
        ['GET', '/v2/user?fields=username', 200, 'req-1', 1],
        ['GET', '/v2/tasks', 500, 'req-2', 1],
        ['POST', '/v2/async/files/copy', undefined, undefined, 1],
        ['GET', '/v2/files', 400, 'req-4', 1],
      ],
    );
    for (const entry of log) assert.strictEqual(entry.durationMs, 7);
    assert.strictEqual(log[2].error, 'ECONNRESET');
    const everything = JSON.stringify(log) + JSON.stringify(errors) + errors.map((e) => `${e.message} ${e.stack} ${describeError(e)}`).join();
    assert.ok(!everything.includes(TOKEN), 'the token is in the log or an error');
    assert.ok(!everything.includes('api.sbgenomics.com/v2/user'), 'the log holds paths, not whole URLs');
  });

  it('logs every attempt of a repeated GET with its attempt number', async () => {
    const { transport, log } = setup([response(500, 'x'), response(500, 'x'), OK()]);
    await transport.get('user');
    assert.deepStrictEqual(
      log.map((e) => [e.attempt, e.status]),
      [
        [1, 500],
        [2, 500],
        [3, 200],
      ],
    );
  });
});
