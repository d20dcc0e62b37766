"""The official client's side of the bench's peer figures (see peerScenario.ts).

Runs one piece of work with sevenbridges-python, unmodified, through its public API, against the emulator the
bench started: `python3 peer.py <work> <base url> <token> <args JSON> [--warm] [--runs=N] [--tracemalloc]`, with
the peer on PYTHONPATH. The handshake keeps the bench's request and byte counts to the work alone:

  - it imports the client and makes its `Api` (not timed), and with `--warm` sends one `GET /v2/rate_limit` (free
    of quota, not counted);
  - then, N times (1 by default): it prints `ready`, waits for a line on stdin, times the work from that line to its
    end (`time.perf_counter`) and prints one JSON line, `{"ms": ..., "result": ..., "peak_bytes": ...}`;
    `peak_bytes` (with `--tracemalloc`) is tracemalloc's peak of the memory Python allocated during that run,
    traced from its start (a process of its own: tracing slows Python down).

A new piece of work is a function below, `def work_<name>(api, args) -> result`, whose result the bench compares
with the product's (the same counts, the same number of items).
"""
import json
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
        start = time.perf_counter()
        result = run(api, args)
        ms = (time.perf_counter() - start) * 1000
        peak = tracemalloc.get_traced_memory()[1] if trace else None
        if trace:
            tracemalloc.stop()
        print(json.dumps({'ms': ms, 'result': result, 'peak_bytes': peak}), flush=True)


if __name__ == '__main__':
    main()
