"""fifteen's searches on a Dask cluster: each bound cut by `fifteen.shard_plan` on the driver,
its items searched in-process by the workers (`fifteen.shard_run` on a worker thread, the
tables read once per worker process), merged by `fifteen.shard_merge` into the lines of
`fifteen solve --threads 1` (see docs/shard-and-dask.md).

The scheduler needs only `distributed`: the functions the workers run are sent by value
(task.py imports `fifteen` only when it runs). Every worker needs this package, of the
driver's version, with the same tables; a worker that lacks any of these is refused in one
line naming it."""
