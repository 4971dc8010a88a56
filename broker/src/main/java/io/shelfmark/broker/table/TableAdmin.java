package io.shelfmark.broker.table;

/**
 * Onboards and drops tables: {@code POST /tables}, {@code DELETE /tables/{name}}. Served by
 * processes that run the controller role.
 *
 * <p>Implementations are thread safe and return quickly: indexing continues in the background and
 * its progress shows in {@link TableDirectory#table(String)}.
 */
public interface TableAdmin {
  /**
   * Starts serving the table a table config (YAML or JSON text) describes, or replaces the config
   * of a table already served.
   *
   * @return the table's status right after onboarding started
   * @throws TableAdminException when the config is invalid or the table cannot be loaded; the
   *     exception lists every violation
   */
  TableStatus onboard(String tableConfig) throws TableAdminException;

  /**
   * Stops serving a table and forgets its config and segment records. Its segments stay in the
   * segment store (onboarding the same config again finds them).
   *
   * <p>The default refuses: an admin without durable state (a test's) has nothing to drop.
   *
   * @return false when no such table was known
   * @throws TableAdminException when the cluster state cannot be changed
   * @throws UnsupportedOperationException when this admin cannot drop tables (HTTP 405)
   */
  default boolean drop(String name) throws TableAdminException {
    throw new UnsupportedOperationException(
        "Cannot drop table " + name + ": this process cannot drop tables");
  }
}
