import * as assert from 'assert';
import { redactSecrets } from '../../../src/api/secretShapes';

describe('api/secretShapes: secrets in quoted text', () => {
  const token = '0123456789abcdef0123456789abcdef';

  it('takes out the account\'s token (plain and percent-encoded) and what reads as a token, key or password', () => {
    const lines = [
      `sb upload --token ${token} reads.bam`,
      `GET /v2/user?t=${encodeURIComponent(token + '/')}`,
      'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
      'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl" https://api',
      '{"password": "hunter2", "user": "rf"}',
      'tool --api-key sk_live_abcdef123456 --threads 8',
      '--password hunter2 --user rf',
      'git clone https://rf:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/x/y',
      'GET https://bucket.s3.amazonaws.com/k?X-Amz-Credential=AKIA/x&X-Amz-Signature=deadbeef',
      '-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA',
    ];
    assert.deepStrictEqual(
      lines.map((l) => redactSecrets(l, [token + '/'])),
      [
        `sb upload --token (redacted) reads.bam`,
        'GET /v2/user?t=(the token)',
        'export AWS_SECRET_ACCESS_KEY=(redacted)',
        'aws_access_key_id = (redacted)',
        'curl -H "Authorization: (redacted)" https://api',
        '{"password": "(redacted)", "user": "rf"}',
        'tool --api-key (redacted) --threads 8',
        '--password (redacted) --user rf',
        'git clone https://rf:(redacted)@github.com/x/y',
        'GET https://bucket.s3.amazonaws.com/k?X-Amz-Credential=(redacted)&X-Amz-Signature=(redacted)',
        '(redacted)',
      ],
    );
  });

  it('leaves a log\'s ordinary lines alone: checksums, counts, paths, an author', () => {
    const lines = ['md5 d41d8cd98f00b204e9800998ecf8427e OK', 'tokens: 1200 reads mapped', 'author: R. Franklin', 'PWD=/home/rf', '[E::hts_open] fail to open file reads.bam', 'the token was refused'];
    assert.deepStrictEqual(lines.map((l) => redactSecrets(l, [token])), lines);
  });
});
