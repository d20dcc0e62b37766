// The timeline panel's page as shipped in media/: a small plain script that never reaches the network (the data is
// posted to it), and a style of theme colours only.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { TIMELINE_MEDIA } from '../../src/tasks/timelineModel';

const root = path.resolve(__dirname, '..', '..', '..');
const media = (file: string): string => fs.readFileSync(path.join(root, 'media', file), 'utf8');

describe('the timeline webview (media/)', () => {
  it('its script is small and plain: no network, no code from strings, no framework', () => {
    const script = media(TIMELINE_MEDIA.script);
    assert.ok(Buffer.byteLength(script) < 12 * 1024, `${Buffer.byteLength(script)} bytes`);
    for (const banned of [/\bfetch\(/, /XMLHttpRequest/, /WebSocket/, /EventSource/, /\beval\(/, /new Function/, /https?:\/\//, /\bimport\(/, /\brequire\(/, /innerHTML/]) {
      assert.doesNotMatch(script, banned);
    }
    assert.match(script, /acquireVsCodeApi\(\)/);
    assert.match(script, /postMessage\(\{ type: 'ready' \}\)/, 'it asks for the data');
  });

  it('its style uses the theme colours only (no colour of its own)', () => {
    const style = media(TIMELINE_MEDIA.style);
    assert.doesNotMatch(style, /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i);
    for (const tone of ['passed', 'failed', 'running', 'aborted', 'waiting']) assert.match(style, new RegExp(`\\.tone-${tone} \\{ background-color: var\\(--vscode-`), tone);
    assert.doesNotMatch(style, /@import|url\(/, 'nothing loaded from elsewhere');
  });
});
