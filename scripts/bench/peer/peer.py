"""The official client's side of the bench's peer figures (see peerScenario.ts).

Runs one piece of work with sevenbridges-python, unmodified, through its public API, against the emulator the
bench started: `python3 peer.py <work> <base url> <token> <args JSON> [--warm] [--runs=N] [--tracemalloc]`, with
the peer on PYTHONPATH. The handshake keeps the bench's request and byte counts to the work alone:

  - it imports the client and makes its `Api` (not timed), and with `--warm` sends one `GET /v2/rate_limit` (free
    of quota, not counted);
  - then, N times (1 by default): it prints `ready`, waits for a line on stdin, times the work from that line to its
    end (`time.perf_counter`) and prints one JSON line, `{"ms": ..., "result": ..., "peak_bytes": ...}`;
    `peak_bytes` (with `--tracemalloc`) is tracemalloc's peak of the memory Python allocated during that run,
    traced from its start (a process of its own: tracing slows Python down); `peak_rss_bytes` is the process's peak
    resident set (`getrusage`, every thread) above its resident set when the run started.

A new piece of work is a function below, `def work_<name>(api, args) -> result`, whose result the bench compares
with the product's (the same counts, the same number of items).
"""
import json
import os
import resource
import sys
import time
import tracemalloc


def work_counts(api, args):
    """The count of each status: one query of one task each, read from its total (X-Total-Matching-Query)."""
    return {status: api.tasks.query(status=status, limit=1).total for status in args['statuses']}


def work_listing(api, args):
    """Every task of one status, 100 a page (the client's largest), following the pages to the end."""
    return sum(1 for _ in api.tasks.query(status=args['status'], limit=100).all())


def work_children(api, args):
    """A batch parent's children, 100 a page."""
    return sum(1 for _ in api.tasks.query(parent=args['parent'], limit=100).all())


def work_copy(api, args):
    """Copies the files to a project's root, 100 a call, then follows every job to FINISHED: one GET per job still
    unfinished every `poll_s` seconds (the client has no call that waits for a job)."""
    from sevenbridges.models.async_jobs import AsyncJob

    files = args['files']
    jobs = []
    for i in range(0, len(files), 100):
        items = [{'file': f, 'project': args['project']} for f in files[i:i + 100]]
        jobs.append(AsyncJob.file_bulk_copy(files=items, api=api))
    unfinished = {job.id for job in jobs if job.state != 'FINISHED'}
    done = {job.id: job for job in jobs if job.state == 'FINISHED'}
    while unfinished:
        time.sleep(args['poll_s'])
        for job_id in sorted(unfinished):
            job = AsyncJob.get_file_copy_job(job_id, api=api)
            if job.state == 'FINISHED':
                unfinished.discard(job_id)
                done[job_id] = job
    return {'jobs': len(done), 'completed': sum(job.completed_files or 0 for job in done.values())}


def work_push_revision(api, args):
    """As sbpack pushes a packed document: the app (`apps.get`), then `create_revision` of its revision + 1 (which
    reads the new revision's app back)."""
    app = api.apps.get(args['app'])
    made = api.apps.create_revision(id=args['app'], raw=args['packed'], revision=app.revision + 1)
    return {'revision': made.revision}


def work_create_tasks(api, args):
    """A task per row of a sample sheet, as a script does it: `api.tasks.create` in a loop, each run at once (the
    rows' file names already made IDs). A refused create (429 among them: the client waits only for maintenance) is
    counted and the loop goes on."""
    made = 0
    refused = {}
    for row in args['rows']:
        try:
            api.tasks.create(name=row['name'], project=args['project'], app=args['app'], inputs=row['inputs'], run=True)
            made += 1
        except Exception as error:  # noqa: BLE001 - the bench counts what the loop could not make
            kind = type(error).__name__
            refused[kind] = refused.get(kind, 0) + 1
    return {'made': made, 'refused': refused}


def work_bulk_import(api, args):
    """The objects of a volume imported as a script does it: `Import.bulk_submit` of 100 a call, each call into a
    folder of its own (the folders kept: `preserve_folder_structure`), then `Import.bulk_get` of the jobs not ended,
    100 a call, every second until none is left (at most 10 minutes). A refused call (429 among them: the client waits
    only for maintenance) is counted and the script goes on; a submit refused leaves its objects not imported."""
    from sevenbridges.models.storage_import import Import

    jobs, refused = [], {}

    def count_refused(error):
        kind = type(error).__name__
        refused[kind] = refused.get(kind, 0) + 1

    for call in args['calls']:
        imports = [
            {'volume': args['volume'], 'location': f"{call['prefix']}obj_{i:05d}.fastq.gz", 'parent': call['parent'], 'preserve_folder_structure': True}
            for i in range(call['first'], call['first'] + call['count'])
        ]
        try:
            jobs.extend(record.resource.id for record in Import.bulk_submit(imports, api=api) if record.valid)
        except Exception as error:  # noqa: BLE001 - the bench counts what the script could not do
            count_refused(error)
    pending, completed, failed = list(jobs), 0, 0
    deadline = time.monotonic() + 600
    while pending and time.monotonic() < deadline:
        time.sleep(1)
        still = []
        for i in range(0, len(pending), 100):
            try:
                records = Import.bulk_get(pending[i:i + 100], api=api)
            except Exception as error:  # noqa: BLE001
                count_refused(error)
                still.extend(pending[i:i + 100])
                continue
            for record in records:
                state = record.resource.state if record.valid else 'FAILED'
                if state == 'COMPLETED':
                    completed += 1
                elif state == 'FAILED':
                    failed += 1
                else:
                    still.append(record.resource.id)
        pending = still
    return {'jobs': len(jobs), 'completed': completed, 'failed': failed, 'pending': len(pending), 'refused': refused}


def _check_size(path, size):
    if not os.path.isfile(path) or os.path.getsize(path) != size:
        raise RuntimeError(f'{path}: not there with its {size} bytes after the transfer')


def _download(api, file, target):
    """`File.download`, waiting for the end (its threads do not raise: the file is checked after)."""
    path = os.path.join(target, file.name)
    file.download(path=path, wait=True)
    _check_size(path, file.size)
    return file.size


def work_download_one(api, args):
    """One file: its record (`files.get`), then `File.download` (5 MiB ranges, 4 at a time)."""
    os.makedirs(args['target'], exist_ok=True)
    size = _download(api, api.files.get(args['file']), args['target'])
    return {'files': 1, 'bytes': size}


def work_download_many(api, args):
    """Every file of a folder, 100 a page, each through `File.download`, one after another (the client's way)."""
    os.makedirs(args['target'], exist_ok=True)
    sizes = [_download(api, file, args['target']) for file in api.files.query(parent=args['folder'], limit=100).all()]
    return {'files': len(sizes), 'bytes': sum(sizes)}


def _upload(api, path, folder):
    """`File.upload` into a folder, waiting for the end (its thread does not raise: its result is checked)."""
    upload = api.files.upload(path=path, parent=folder, wait=True)
    if upload.result() is None:
        raise RuntimeError(f'{path}: the upload did not complete ({upload.status})')
    return os.path.getsize(path)


def work_upload_one(api, args):
    """One local file through `File.upload` (32 MiB parts asked for, 4 at a time)."""
    return {'files': 1, 'bytes': _upload(api, args['paths'][0], args['folder'])}


def work_upload_many(api, args):
    """Local files through `File.upload`, one after another."""
    sizes = [_upload(api, path, args['folder']) for path in args['paths']]
    return {'files': len(sizes), 'bytes': sum(sizes)}


def _rss_bytes():
    with open('/proc/self/statm') as statm:
        return int(statm.read().split()[1]) * os.sysconf('SC_PAGE_SIZE')


def main():
    work, url, token, raw_args = sys.argv[1:5]
    flags = [flag for flag in sys.argv[5:]]
    run = globals().get(f'work_{work}')
    if run is None:
        raise SystemExit(f'peer.py: no work named {work!r}')
    runs = next((int(flag.split('=')[1]) for flag in flags if flag.startswith('--runs=')), 1)
    trace = '--tracemalloc' in flags
    import sevenbridges as sbg

    # `debug=True` is the client's own switch that lets it talk to a plain-http URL (the emulator on loopback).
    api = sbg.Api(url=url, token=token, debug=True)
    if '--warm' in flags:
        api.rate_limit.get()
    args = json.loads(raw_args)
    for _ in range(runs):
        print('ready', flush=True)
        sys.stdin.readline()
        if trace:
            tracemalloc.start()
        rss_before = _rss_bytes()
        start = time.perf_counter()
        result = run(api, args)
        ms = (time.perf_counter() - start) * 1000
        peak = tracemalloc.get_traced_memory()[1] if trace else None
        # ru_maxrss: the process's peak so far (KiB on Linux); its start-up peaks below the work's.
        peak_rss = max(0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - rss_before)
        if trace:
            tracemalloc.stop()
        print(json.dumps({'ms': ms, 'result': result, 'peak_bytes': peak, 'peak_rss_bytes': peak_rss}), flush=True)


if __name__ == '__main__':
    main()
