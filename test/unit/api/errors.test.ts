import * as assert from 'assert';
import { ApiError, describeError, errorFromResponse, redactValue } from '../../../src/api/errors';

const ctx = { method: 'GET', path: '/v2/tasks' };

describe('errors: errorFromResponse', () => {
  it('takes status, code, message and more_info from the platform body', () => {
    const e = errorFromResponse(409, JSON.stringify({ status: 409, code: 10223, message: 'File already exists.', more_info: 'https://x' }), { ...ctx, requestId: 'r' });
    assert.deepStrictEqual([e.kind, e.status, e.code, e.message, e.moreInfo, e.requestId, e.method, e.path], ['http', 409, 10223, 'File already exists.', 'https://x', 'r', 'GET', '/v2/tasks']);
  });

  it('falls back to the status and the text when the body has no usable message', () => {
    assert.strictEqual(errorFromResponse(500, '{"code": 90004, "message": ""}', ctx).message, 'HTTP 500: {"code": 90004, "message": ""}');
    assert.strictEqual(errorFromResponse(500, '{"code": 90004, "message": ""}', ctx).code, 90004);
    assert.strictEqual(errorFromResponse(502, '<html>\n  <b>Bad   Gateway</b>\n</html>', ctx).message, 'HTTP 502: <html> <b>Bad Gateway</b> </html>');
    assert.strictEqual(errorFromResponse(400, '"just a string"', ctx).message, 'HTTP 400: "just a string"');
    assert.strictEqual(errorFromResponse(404, '', ctx).message, 'HTTP 404');
  });

  it('redacts the token once the body is decoded: JSON escapes (\\u0073…, \\/) cannot bring it back into the message or the words shown', () => {
    const token = 'f00dfeed/f00dfeedf00dfeedf00dfeed';
    const escaped = [...token].map((c) => (c === '/' ? '\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('');
    const withMessage = errorFromResponse(401, `{"message": "Bad token ${escaped}"}`, { ...ctx, secrets: [token] });
    const withoutMessage = errorFromResponse(500, `{"echo": {"X-SBG-Auth-Token": "${escaped}"}}`, { ...ctx, secrets: [token] });
    for (const e of [withMessage, withoutMessage]) {
      for (const text of [e.message, describeError(e)]) assert.ok(!text.includes(token) && !text.includes('f00dfeed/'), text);
    }
    assert.strictEqual(withMessage.message, 'Bad token (the token)');
    assert.strictEqual(withoutMessage.message, 'HTTP 500: {"echo":{"X-SBG-Auth-Token":"(the token)"}}');
  });

  it('redactValue: the token out of every string and key, nested and percent-encoded; what holds none is given back as it is, the input untouched', () => {
    const token = 'f00dfeed/f00dfeed';
    const results = Array.from({ length: 3 }, (_, i) => ({ resource: { id: `file-${i}`, tags: ['a'] } }));
    const answer = JSON.parse(
      JSON.stringify({ href: 'https://api/x', results, echo: { [`k ${token}`]: [`a ${encodeURIComponent(token)} b`, 1, null, { deep: `x${token}` }] } }).replace('"href"', '"__proto__":{"p":1},"href"'),
    );
    const before = JSON.stringify(answer);
    const out = redactValue(answer, [token]);
    assert.strictEqual(JSON.stringify(answer), before, 'the input is not changed');
    assert.deepStrictEqual(out.echo, { 'k (the token)': ['a (the token) b', 1, null, { deep: 'x(the token)' }] });
    assert.ok(!JSON.stringify(out).includes('f00dfeed'));
    assert.strictEqual(out.results, answer.results, 'what holds no token is not copied');
    assert.strictEqual(out.results[0].resource, answer.results[0].resource);
    assert.deepStrictEqual(Object.keys(out), ['__proto__', 'href', 'results', 'echo'], 'keys in their order, "__proto__" kept as an own key');
    assert.deepStrictEqual(Object.getPrototypeOf(out), Object.prototype);
    const clean = JSON.parse('{"a":[{"b":"c"}]}');
    assert.strictEqual(redactValue(clean, [token]), clean);
    assert.strictEqual(redactValue(answer, ['']), answer, 'no secret: nothing to do');
  });

  it('cuts a long text body to 200 characters', () => {
    const e = errorFromResponse(500, 'x'.repeat(5000), ctx);
    assert.strictEqual(e.message, `HTTP 500: ${'x'.repeat(200)}`);
  });

  it('ignores a code or more_info of the wrong type', () => {
    const e = errorFromResponse(400, JSON.stringify({ code: '7006', message: 'm', more_info: 5 }), ctx);
    assert.strictEqual(e.code, undefined);
    assert.strictEqual(e.moreInfo, undefined);
  });
});

describe('errors: classification and words', () => {
  const cases: [string, ApiError, { transient: boolean; unauthorized: boolean; words: RegExp }][] = [
    ['signed out', new ApiError({ kind: 'signedOut', message: 'x' }), { transient: false, unauthorized: true, words: /not signed in/ }],
    ['401', new ApiError({ kind: 'http', status: 401, message: 'x' }), { transient: false, unauthorized: true, words: /rejected the authentication token/ }],
    ['code 90001', new ApiError({ kind: 'http', status: 403, code: 90001, message: 'x' }), { transient: false, unauthorized: true, words: /rejected/ }],
    ['429', new ApiError({ kind: 'http', status: 429, code: 1000, message: 'x', resetAt: 1_800_000_000 }), { transient: true, unauthorized: false, words: /rate limit.*It resets at/ }],
    ['maintenance', new ApiError({ kind: 'http', status: 503, code: 0, message: 'x' }), { transient: true, unauthorized: false, words: /under maintenance/ }],
    ['500', new ApiError({ kind: 'http', status: 500, code: 90004, message: 'Boom' }), { transient: true, unauthorized: false, words: /^Boom \(HTTP 500, code 90004\)\.$/ }],
    ['404', new ApiError({ kind: 'http', status: 404, message: 'Gone' }), { transient: false, unauthorized: false, words: /^Gone \(HTTP 404\)\.$/ }],
    ['network', new ApiError({ kind: 'network', message: 'ECONNREFUSED' }), { transient: true, unauthorized: false, words: /Cannot reach the platform \(ECONNREFUSED\)/ }],
    ['reset', new ApiError({ kind: 'network', message: 'ECONNRESET' }), { transient: true, unauthorized: false, words: /^The connection to the platform was reset before it answered\.$/ }],
    ['timeout', new ApiError({ kind: 'timeout', message: 'x' }), { transient: true, unauthorized: false, words: /did not answer in time/ }],
    ['cancelled', new ApiError({ kind: 'cancelled', message: 'x' }), { transient: false, unauthorized: false, words: /^Cancelled\.$/ }],
    ['malformed', new ApiError({ kind: 'malformed', message: 'not JSON' }), { transient: false, unauthorized: false, words: /cannot be read \(not JSON\)/ }],
    ['invalid', new ApiError({ kind: 'invalid', message: 'Bad status.' }), { transient: false, unauthorized: false, words: /^Bad status\.$/ }],
    ['config', new ApiError({ kind: 'config', message: 'Use https.' }), { transient: false, unauthorized: false, words: /^Use https\.$/ }],
  ];
  for (const [what, error, expected] of cases) {
    it(what, () => {
      assert.strictEqual(error.isTransient, expected.transient, 'isTransient');
      assert.strictEqual(error.isUnauthorized, expected.unauthorized, 'isUnauthorized');
      assert.match(describeError(error), expected.words);
    });
  }

  it('describes other errors by their message', () => {
    assert.strictEqual(describeError(new Error('plain')), 'plain');
    assert.strictEqual(describeError('text'), 'text');
  });

  it('defaults maybeDelivered to false and keeps the cause', () => {
    const cause = new Error('root');
    const e = new ApiError({ kind: 'network', message: 'x', cause });
    assert.strictEqual(e.maybeDelivered, false);
    assert.strictEqual(e.cause, cause);
    assert.ok(e instanceof Error);
    assert.strictEqual(e.name, 'ApiError');
  });
});
