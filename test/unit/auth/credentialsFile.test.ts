import * as assert from 'assert';
import { parseCredentialsFile, usableProfiles } from '../../../src/auth/credentialsFile';

describe('credentials file', () => {
  it('reads every profile with its endpoint and token', () => {
    const parsed = parseCredentialsFile(
      [
        '[default]',
        'api_endpoint = https://api.sbgenomics.com/v2',
        'auth_token = 0123456789abcdef0123456789abcdef',
        '',
        '[cgc]',
        'api_endpoint=https://cgc-api.sbgenomics.com/v2',
        'auth_token=fedcba9876543210fedcba9876543210',
      ].join('\n'),
    );
    assert.deepStrictEqual(
      parsed.profiles.map((p) => [p.name, p.endpoint, p.token]),
      [
        ['default', 'https://api.sbgenomics.com/v2', '0123456789abcdef0123456789abcdef'],
        ['cgc', 'https://cgc-api.sbgenomics.com/v2', 'fedcba9876543210fedcba9876543210'],
      ],
    );
    assert.deepStrictEqual(parsed.problems, []);
  });

  it('skips comments and blank lines, accepts CRLF, colons and odd spacing', () => {
    const parsed = parseCredentialsFile('# mine\r\n; also a comment\r\n[ work ]\r\n  API_ENDPOINT :  https://eu-api.sbgenomics.com/v2  \r\nauth_token: abcdefabcdefabcdefabcdefabcdefab\r\n');
    assert.strictEqual(parsed.profiles.length, 1);
    assert.strictEqual(parsed.profiles[0].name, 'work');
    assert.strictEqual(parsed.profiles[0].endpoint, 'https://eu-api.sbgenomics.com/v2');
    assert.strictEqual(parsed.profiles[0].token, 'abcdefabcdefabcdefabcdefabcdefab');
    assert.deepStrictEqual(parsed.problems, []);
  });

  it('names a profile that lacks a key, and leaves it out of the usable ones', () => {
    const parsed = parseCredentialsFile('[a]\napi_endpoint = https://api.sbgenomics.com/v2\n[b]\nauth_token = x\n[c]\napi_endpoint = https://x/v2\nauth_token = t\n');
    assert.deepStrictEqual(
      parsed.problems.map((p) => [p.line, p.message]),
      [
        [1, 'Profile "a" has no auth_token.'],
        [3, 'Profile "b" has no api_endpoint.'],
      ],
    );
    assert.deepStrictEqual(usableProfiles(parsed).map((p) => p.name), ['c']);
  });

  it('reports bad lines with their line numbers and keeps reading', () => {
    const parsed = parseCredentialsFile('auth_token = orphan\n[]\n[ok]\nthis is not a pair\napi_endpoint = https://a/v2\nauth_token = t\n');
    assert.deepStrictEqual(parsed.problems, [
      { line: 1, message: '"auth_token" is outside any [profile] section.' },
      { line: 2, message: 'A section header without a profile name.' },
      { line: 4, message: 'Not a "key = value" line.' },
    ]);
    assert.deepStrictEqual(usableProfiles(parsed).map((p) => p.name), ['ok']);
  });

  it('treats an empty value as missing and ignores unknown keys', () => {
    const parsed = parseCredentialsFile('[p]\napi_endpoint =\nauth_token = t\nadvance_access = True\n');
    assert.strictEqual(parsed.profiles[0].endpoint, undefined);
    assert.deepStrictEqual(usableProfiles(parsed), []);
    assert.strictEqual(parsed.problems.length, 1);
  });

  it('finds nothing in an empty file', () => {
    assert.deepStrictEqual(parseCredentialsFile(''), { profiles: [], problems: [] });
  });
});
