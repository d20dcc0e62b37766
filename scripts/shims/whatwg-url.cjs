// Stands in for the `whatwg-url` package in the bundle (scripts/build.mjs aliases it here). node-fetch 2 reads
// `require('url').URL || require('whatwg-url').URL` and nothing else from that package; Node has had its own URL
// since 10, so the package (and tr46's 254 KB mapping table behind it) is dead weight in the extension host.
// Should a host ever lack `url.URL`, node-fetch falls back to this: the same WHATWG URL, from the global.
module.exports = { URL: globalThis.URL };
