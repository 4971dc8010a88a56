"""Runs ADBC's Flight SQL driver as a user program would, for TestPythonAdbc.

Reads one JSON command on stdin and prints one JSON answer on stdout:
  {"uri": "grpc://127.0.0.1:8815", "sql": "...", ["parameters": [...]]}
The statement runs through the DB-API (adbc_driver_flightsql.dbapi) and its result is fetched
into a pyarrow Table with fetch_arrow_table(). The answer carries "schema" (each column's name
and pyarrow type as text), "rows" (values as JSON: numbers, text; dates and timestamps as ISO
text; decimals as text) and "num_rows", or "error" with the exception's type and message.
"""
import datetime
import decimal
import json
import sys


def value(v):
    if isinstance(v, (datetime.datetime, datetime.date)):
        return v.isoformat(sep=" ") if isinstance(v, datetime.datetime) else v.isoformat()
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, list):  # a map column: key/value pairs
        return {k: value(x) for k, x in v}
    return v


def run(command):
    import adbc_driver_flightsql.dbapi as flightsql
    import pyarrow

    with flightsql.connect(command["uri"]) as connection:
        with connection.cursor() as cursor:
            parameters = command.get("parameters")
            if parameters is None:
                cursor.execute(command["sql"])
            else:
                cursor.execute(command["sql"], parameters=tuple(parameters))
            table = cursor.fetch_arrow_table()
    assert isinstance(table, pyarrow.Table)
    return {
        "schema": [[field.name, str(field.type)] for field in table.schema],
        "rows": [[value(v) for v in row.values()] for row in table.to_pylist()],
        "num_rows": table.num_rows,
    }


def main():
    command = json.load(sys.stdin)
    try:
        answer = run(command)
    except Exception as e:  # the test reads the message a user would see
        answer = {"error": type(e).__name__ + ": " + str(e)}
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
