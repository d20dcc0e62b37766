// Stands in for the optional `encoding` package in the bundle (scripts/build.mjs aliases it here). node-fetch 2
// tries `require('encoding').convert` when it loads and, without it, refuses only `textConverted()`, which the
// extension never calls. Unresolved, that require makes the bundle probe node_modules folders and throw on every
// load; this answers at once with the same outcome: no `convert`.
module.exports = {};
