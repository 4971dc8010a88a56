package io.shelfmark.broker.auth;

/**
 * Which tables a caller may read, asked where a request's table is known: the query path after
 * planning, and table listings. Implementations are immutable and thread safe.
 */
public interface TableAccess {
  /** Every table: authentication is off, or the user may read everything. */
  TableAccess ALL =
      new TableAccess() {
        @Override
        public boolean canRead(String table) {
          return true;
        }

        @Override
        public boolean readsEverything() {
          return true;
        }

        @Override
        public String toString() {
          return "TableAccess.ALL";
        }
      };

  /** Whether the table with SQL name {@code table} ({@code namespace.table}) may be read. */
  boolean canRead(String table);

  /**
   * Whether every table may be read, so that callers can skip filtering (and answer exactly as
   * without authentication).
   */
  boolean readsEverything();
}
