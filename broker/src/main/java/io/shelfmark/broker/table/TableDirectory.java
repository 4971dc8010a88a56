package io.shelfmark.broker.table;

import java.util.List;
import java.util.Optional;

/**
 * The tables the broker serves, as published by the controller. Thread safe; answers from memory
 * (never reads catalogs or storage on the request path).
 */
public interface TableDirectory {
  /** Every served table, sorted by name. */
  List<TableStatus> tables();

  /** The table with that SQL name, if served. */
  default Optional<TableStatus> table(String name) {
    return tables().stream().filter(table -> table.name().equals(name)).findFirst();
  }

  /**
   * The columns of the table with that SQL name, if served; empty also from a directory that does
   * not know columns (then the schema endpoints answer 404).
   */
  default Optional<TableSchema> schema(String name) {
    return Optional.empty();
  }
}
