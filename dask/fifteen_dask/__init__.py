"""fifteen's searches on a Dask cluster: each bound cut by `fifteen shard plan`, its items
searched as tasks by `fifteen shard run` on the workers, merged by `fifteen shard merge` into
the answer of one thread (see docs/shard-and-dask.md)."""
