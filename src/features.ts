// What is loaded on first use (dist/features.js; scripts/bundles.cjs builds it): the commands' run functions (each
// feature's table), what a drop does, the copy flow, the transfer engines (Download…, Upload…, Resume), sign-in and
// sign-out, the timeline panel, what says a watched task ended, every kind of write's code (src/writeKinds.ts: the
// outbox loads it). Until a command is first run a stand-in stands behind it (main.ts); whatever else needs this part
// asks main.ts's `features` (a `Later`), which loads it once. What starts work (the task document, the apps' commands)
// is loaded later still: src/authoring.ts.
// The modules dist/main.js holds are not bundled here again but read from it (one outbox, one tracker, …).
export { authCommands, pickEndpoint, setToken, signOut } from './auth/commands';
export { CopyFlow } from './copy/flow';
export { dropCopy, filesCommands } from './files/commands';
export { dropMove } from './files/moveCommand';
export { jobsCommands } from './jobs/commands';
export { discardDownloads, resumeDownloads } from './remote/download';
export { discardUploadRun, resumeUploadRun, uploadCommand } from './remote/upload';
export { storageContentReader } from './remote/preview';
export { fileSystemWrites } from './remote/fileSystemWrites';
export { changedWhileOpen } from './remote/changedWhileOpen';
export { fetchLog } from './tasks/logContent';
export { resumeRerunWatches } from './tasks/batchCommands';
export { taskCommands } from './tasks/commands';
export { announce } from './tasks/executionCommands';
export { openTimeline } from './tasks/timelinePanel';
export { volumesCommands, volumesModel } from './volumes/commands';
export { volumeJobReaderFor, volumeWritingFor } from './volumes/volumeJobWrite';
export { writeKinds } from './writeKinds';
