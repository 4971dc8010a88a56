"""Runs pinotdb as a user program would and prints what it returned, for TestPythonClients.

Reads one JSON command on stdin and prints one JSON answer on stdout:
  {"op": "dbapi", "host", "port", "sql", ["database"], ["queryOptions"]}
                                                          DB-API with default settings, the
                                                          options passed to cursor.execute
  {"op": "inspect", "host", "port", ["database"]}         SQLAlchemy: table names, then columns
  {"op": "core-select", "host", "port", "database", "table", "where_org_id"}
                                                          SQLAlchemy Core select() on the
                                                          reflected table
  {"op": "ping", "host", "port"}                          the dialect's do_ping (SELECT 1)
Answers carry "rows", "tables"/"columns", "sql" (what SQLAlchemy generated) or "error" with the
exception's type and message as the user sees them.
"""
import json
import sys


def dbapi(command):
    from pinotdb import connect

    kwargs = {"host": command["host"], "port": command["port"], "path": "/query/sql",
              "scheme": "http"}
    if command.get("database"):
        kwargs["database"] = command["database"]
    connection = connect(**kwargs)
    cursor = connection.cursor()
    cursor.execute(command["sql"], queryOptions=command.get("queryOptions"))
    return {"rows": [[text(value) for value in row] for row in cursor.fetchall()],
            "columns": [column[0] for column in cursor.description]}


def engine(command):
    from sqlalchemy import create_engine

    base = f"http://{command['host']}:{command['port']}/"
    url = f"pinot://{command['host']}:{command['port']}/query/sql?controller={base}"
    if command.get("database"):
        url += f"&database={command['database']}"
    return create_engine(url)


def inspect_tables(command):
    from sqlalchemy import inspect

    inspector = inspect(engine(command))
    tables = inspector.get_table_names()
    columns = {table: [f"{column['name']} {type(column['type']).__name__}"
                       for column in inspector.get_columns(table)]
               for table in tables}
    return {"tables": tables, "columns": columns}


def core_select(command):
    from sqlalchemy import MetaData, Table, func, select

    pinot = engine(command)
    table = Table(command["table"], MetaData(), autoload_with=pinot)
    statement = (
        select(table.c.metric, func.count().label("n"), func.sum(table.c.sum_rollup).label("s"))
        .where(table.c.org_id == command["where_org_id"])
        .group_by(table.c.metric)
        .order_by(table.c.metric)
    )
    with pinot.connect() as connection:
        rows = connection.execute(statement).fetchall()
    return {"sql": str(statement.compile(pinot)),
            "rows": [[text(value) for value in row] for row in rows]}


def ping(command):
    pinot = engine(command)
    with pinot.connect() as connection:
        return {"ping": pinot.dialect.do_ping(connection.connection.dbapi_connection)}


def text(value):
    """JSON's own types as they are (the test compares numbers as numbers), others as text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def main():
    command = json.load(sys.stdin)
    operations = {"dbapi": dbapi, "inspect": inspect_tables, "core-select": core_select,
                  "ping": ping}
    try:
        answer = operations[command["op"]](command)
    except Exception as error:  # the test asserts on what the user would see
        answer = {"error": f"{type(error).__name__}: {error}"}
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
