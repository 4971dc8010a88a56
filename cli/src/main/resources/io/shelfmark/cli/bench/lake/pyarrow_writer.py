"""Rewrites Parquet data files with pyarrow's default writer settings, for `shelfmark bench --writer pyarrow`.

The Java side generates the benchmark rows once (iceberg-core's writer) and hands this script a JSON
list of {"source": ..., "target": ...} pairs; each source file is read whole and written again with
pyarrow.parquet.write_table and no options, so the rows are the same and only the layout is
pyarrow's: snappy, dictionary encoding on every column (falling back to PLAIN past the 1 MiB
dictionary page limit), 1 MiB data pages, no page index, created_by parquet-cpp-arrow. The Iceberg
field ids travel along in the Arrow fields' PARQUET:field_id metadata, which the Java side needs to
append the files to an Iceberg table. One JSON line per file goes to stdout; errors go to stderr
with a non-zero exit status.

Usage: python pyarrow_writer.py FILES.json
"""

import json
import sys

import pyarrow
import pyarrow.parquet as pq

FIELD_ID = b"PARQUET:field_id"


def missing_field_ids(schema):
    """Names of the fields (nested ones included) that carry no Iceberg field id."""
    missing = []

    def visit(field, path):
        if not field.metadata or FIELD_ID not in field.metadata:
            missing.append(path)
        for child in children(field.type):
            visit(child, path + "." + child.name)

    for field in schema:
        visit(field, field.name)
    return missing


def children(arrow_type):
    if pyarrow.types.is_map(arrow_type):
        return [arrow_type.key_field, arrow_type.item_field]
    if pyarrow.types.is_list(arrow_type) or pyarrow.types.is_large_list(arrow_type):
        return [arrow_type.value_field]
    if pyarrow.types.is_struct(arrow_type):
        return [arrow_type.field(i) for i in range(arrow_type.num_fields)]
    return []


def rewrite(source, target):
    table = pq.read_table(source)
    missing = missing_field_ids(table.schema)
    if missing:
        raise ValueError(
            f"Cannot rewrite {source}: fields {missing} have no Iceberg field id"
            " (the source must be written by an Iceberg writer)")
    # The Java writer's key-value metadata (iceberg.schema) is not pyarrow's to write: drop it, as
    # a file written by pyarrow from scratch would not have it. Field ids stay on the fields.
    pq.write_table(table.replace_schema_metadata(None), target)
    metadata = pq.read_metadata(target)
    return {
        "source": source,
        "target": target,
        "rows": metadata.num_rows,
        "row_groups": metadata.num_row_groups,
        "created_by": metadata.created_by,
    }


def main(argv):
    if len(argv) != 2:
        print("Usage: pyarrow_writer.py FILES.json", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        pairs = json.load(f)
    for pair in pairs:
        print(json.dumps(rewrite(pair["source"], pair["target"])), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
