"""Writes dictionary-fallback.parquet, a fixture of TestDictionaryFallback.

pyarrow writes a chunk's pages dictionary-encoded until its dictionary passes
dictionary_pagesize_limit, then falls back to PLAIN for the rest of the chunk. With a 2 KiB limit
and small pages, `v` and `s` start each row group with a few dictionary-encoded pages and go on
PLAIN; `k` (5 values) stays dictionary-encoded. The page index (OffsetIndex) is written, as
pyarrow and pyiceberg do by default for the bench's tables, and so is encoding_stats.

Run: python write_dictionary_fallback.py  (pyarrow 26.0.1, the version bin/test installs)
"""
import pyarrow as pa
import pyarrow.parquet as pq

ROWS = 6000
ids = list(range(ROWS))
table = pa.table(
    {
        "id": pa.array(ids, pa.int64()),
        "v": pa.array([(i * 2654435761) % 1000003 for i in ids], pa.int64()),
        "s": pa.array([None if i % 13 == 0 else "s-%d" % ((i * 7919) % 100000) for i in ids], pa.string()),
        "k": pa.array(["k-%d" % (i % 5) for i in ids], pa.string()),
    }
)
pq.write_table(
    table,
    "dictionary-fallback.parquet",
    row_group_size=3000,
    data_page_size=1024,
    write_batch_size=64,
    dictionary_pagesize_limit=2048,
    write_page_index=True,
    compression="snappy",
)
