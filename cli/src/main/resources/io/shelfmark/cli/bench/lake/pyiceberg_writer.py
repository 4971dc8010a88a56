"""Writes the benchmark rows again through pyiceberg's own append path, for `shelfmark bench --writer pyiceberg`.

The Java side generates the benchmark rows once (iceberg-core's writer) and hands this script a JSON
list of {"source": ..., "target": ...} pairs. This script keeps a pyiceberg SqlCatalog over SQLite
in the staging directory, creates one table there from the first source's Arrow schema (as a user
holding a DataFrame would: the field ids are stripped, so pyiceberg assigns its own), and appends
each source file's rows with Table.append, which writes Parquet through pyiceberg's
ParquetFormatWriter with the table's default write properties (zstd, 1 MiB pages, 20,000-row write
batches, 2 MiB dictionary pages, 1 Mi-row row groups, 512 MiB target file size). The table is
unpartitioned and appended one source file at a time: every source file holds one partition of the
benchmark table, and pyiceberg would write one file per partition anyway, so the files are the ones
a partitioned append would write, with the rows in the generator's order (a partitioned append
groups rows by partition first). The files pyiceberg wrote (more than one when a source exceeds the
target file size) are hard-linked or copied to "<target>", "<target>.1", ... for the Java side to
upload; their field ids must equal the source's, which the script checks.

One JSON line per source goes to stdout; errors go to stderr with a non-zero exit status.

Usage: python pyiceberg_writer.py FILES.json
"""

import json
import os
import shutil
import sys
from urllib.parse import urlparse

import pyarrow
import pyarrow.parquet as pq
import pyiceberg
from pyiceberg.catalog.sql import SqlCatalog

FIELD_ID = b"PARQUET:field_id"
NAMESPACE = "bench"
TABLE = NAMESPACE + ".metrics"


def field_ids(schema):
    """{dotted path: field id} of every field, nested ones included; None where a field has none."""
    ids = {}

    def visit(field, path):
        metadata = field.metadata or {}
        ids[path] = int(metadata[FIELD_ID]) if FIELD_ID in metadata else None
        for child in children(field.type):
            visit(child, path + "." + child.name)

    for field in schema:
        visit(field, field.name)
    return ids


def children(arrow_type):
    if pyarrow.types.is_map(arrow_type):
        return [arrow_type.key_field, arrow_type.item_field]
    if pyarrow.types.is_list(arrow_type) or pyarrow.types.is_large_list(arrow_type):
        return [arrow_type.value_field]
    if pyarrow.types.is_struct(arrow_type):
        return [arrow_type.field(i) for i in range(arrow_type.num_fields)]
    return []


def without_field_ids(field):
    """The field as a DataFrame would hold it: no Parquet field ids, no metadata."""
    arrow_type = field.type
    if pyarrow.types.is_map(arrow_type):
        arrow_type = pyarrow.map_(
            without_field_ids(arrow_type.key_field), without_field_ids(arrow_type.item_field))
    elif pyarrow.types.is_list(arrow_type):
        arrow_type = pyarrow.list_(without_field_ids(arrow_type.value_field))
    elif pyarrow.types.is_large_list(arrow_type):
        arrow_type = pyarrow.large_list(without_field_ids(arrow_type.value_field))
    elif pyarrow.types.is_struct(arrow_type):
        arrow_type = pyarrow.struct(
            [without_field_ids(arrow_type.field(i)) for i in range(arrow_type.num_fields)])
    return pyarrow.field(field.name, arrow_type, nullable=field.nullable)


def as_dataframe(table):
    schema = pyarrow.schema([without_field_ids(field) for field in table.schema])
    return table.cast(schema)


def local_path(location):
    parsed = urlparse(location)
    if parsed.scheme not in ("", "file"):
        raise ValueError(f"Cannot stage {location}: not a local file (the warehouse must be local)")
    return parsed.path


def added_files(table):
    """Local paths of the data files the table's current snapshot added."""
    snapshot = table.current_snapshot()
    paths = []
    for manifest in snapshot.manifests(table.io):
        if manifest.added_snapshot_id != snapshot.snapshot_id:
            continue
        for entry in manifest.fetch_manifest_entry(table.io, discard_deleted=True):
            if entry.snapshot_id == snapshot.snapshot_id:
                paths.append(local_path(entry.data_file.file_path))
    return sorted(paths)


def check_field_ids(source, expected, written):
    actual = field_ids(pq.read_schema(written))
    if actual != expected:
        raise ValueError(
            f"Cannot stage pyiceberg's rewrite of {source}: its field ids {actual} differ from the"
            f" source's {expected} (the Java side appends by field id; the table pyiceberg created"
            " assigned other ids)")


def stage(written, target):
    """Links (or copies) pyiceberg's files to target, target.1, ... and returns those paths."""
    staged = []
    for index, path in enumerate(written):
        name = target if index == 0 else f"{target}.{index}"
        try:
            os.link(path, name)
        except OSError:
            shutil.copyfile(path, name)
        staged.append(name)
    return staged


def open_table(catalog, source_schema):
    schema = pyarrow.schema([without_field_ids(field) for field in source_schema])
    catalog.create_namespace_if_not_exists(NAMESPACE)
    return catalog.create_table(TABLE, schema=schema)


def main(argv):
    if len(argv) != 2:
        print("Usage: pyiceberg_writer.py FILES.json", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        pairs = json.load(f)
    if not pairs:
        return 0
    home = os.path.join(os.path.dirname(os.path.abspath(argv[1])), "pyiceberg")
    os.makedirs(os.path.join(home, "warehouse"), exist_ok=True)
    catalog = SqlCatalog(
        "bench",
        uri="sqlite:///" + os.path.join(home, "catalog.db"),
        warehouse="file://" + os.path.join(home, "warehouse"),
    )
    table = None
    for pair in pairs:
        source = pq.read_table(pair["source"])
        expected = field_ids(source.schema)
        missing = [path for path, field_id in expected.items() if field_id is None]
        if missing:
            raise ValueError(
                f"Cannot rewrite {pair['source']}: fields {missing} have no Iceberg field id"
                " (the source must be written by an Iceberg writer)")
        if table is None:
            table = open_table(catalog, source.schema)
        table.append(as_dataframe(source))
        written = added_files(table)
        rows = 0
        row_groups = 0
        created_by = ""
        for path in written:
            check_field_ids(pair["source"], expected, path)
            metadata = pq.read_metadata(path)
            rows += metadata.num_rows
            row_groups += metadata.num_row_groups
            created_by = metadata.created_by
        print(json.dumps({
            "source": pair["source"],
            "targets": stage(written, pair["target"]),
            "rows": rows,
            "row_groups": row_groups,
            "created_by": created_by,
            "pyiceberg": pyiceberg.__version__,
        }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
