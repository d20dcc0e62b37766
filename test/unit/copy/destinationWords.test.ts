import * as assert from 'assert';
import { destinationWords, type DestinationVerb } from '../../../src/copy/destinationWords';

const VERBS: Record<DestinationVerb, RegExp> = { copy: /\bcop(y|ied)\b/i, move: /\bmov(e|ed|ing)\b/i, upload: /\buploa(d|ded)\b/i, import: /\bimport(ed|ing)?\b/i };

describe('the destination pickers\' words (#44)', () => {
  for (const verb of Object.keys(VERBS) as DestinationVerb[]) {
    it(`a ${verb} says ${verb} in every title and row, never another action`, () => {
      const words = destinationWords(verb);
      const said = [
        words.kindTitle('2 items'),
        words.browseTitle('2 items', 'rfranklin/omega', true),
        words.browseTitle('2 items', 'rfranklin/omega › results', false),
        words.projectTitle('projectRoot'),
        words.projectTitle('otherProjectFolder'),
        words.excluded,
        words.chooseHere,
      ];
      for (const text of said) {
        assert.match(text, VERBS[verb], text);
        for (const [other, pattern] of Object.entries(VERBS)) if (other !== verb) assert.doesNotMatch(text, pattern, `${verb}: ${text}`);
      }
    });
  }

  it('names the destination as given, at a root with "(root)"', () => {
    assert.strictEqual(destinationWords('upload').browseTitle('2 items', 'rfranklin/omega', true), 'Upload 2 items to rfranklin/omega (root)');
    assert.strictEqual(destinationWords('upload').browseTitle('1 item', 'rfranklin/omega › results', false), 'Upload 1 item to rfranklin/omega › results');
    assert.strictEqual(destinationWords('move').kindTitle('3 items'), 'Move 3 items: where to?');
  });
});
