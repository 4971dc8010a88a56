package io.shelfmark.broker.table;

/**
 * Onboards tables: {@code POST /tables}. Served by processes that run the controller role.
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
}
