// Run by the bench (bundle.ts) in a Node process of its own: loads dist/main.js, then times the first use of
// dist/features.js (its require: read, parse, run, read what it takes from main.js). The vscode module is a
// stand-in (a Proxy), as in test/build/bundle.test.ts: neither bundle calls it while loading. Prints the ms.
import * as path from 'path';

const dist = process.argv[2];
const stub: unknown = new Proxy(function () {}, { get: (_t, key) => (key === 'prototype' ? {} : stub), apply: () => stub, construct: () => ({}) });
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Module = require('module') as { _load: (request: string, ...rest: unknown[]) => unknown };
const original = Module._load;
Module._load = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? stub : original.call(this, request, ...rest);
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(path.join(dist, 'main.js'));
const start = performance.now();
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(path.join(dist, 'features.js'));
console.log(JSON.stringify({ ms: performance.now() - start }));
