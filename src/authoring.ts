// What starts work, loaded when first used (dist/authoring.js; scripts/bundles.cjs builds it): the task document's
// language (completion, hovers, links, problems) and commands (Run Task, Save as Draft, Run for Each Row…), and the CWL
// apps' commands (Pull App…, Push App Revision…). It is loaded when a task document is first open or one of these
// commands first run (main.ts's `authoring`, after dist/features.js).
// The modules dist/main.js and dist/features.js hold are not bundled here again but read from them.
export { appsCommands } from './apps/commands';
export { taskDocumentCommands } from './tasks/taskDocumentCommands';
export { TaskDocumentLanguage } from './tasks/taskDocumentLanguage';
