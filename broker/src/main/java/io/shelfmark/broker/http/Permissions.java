package io.shelfmark.broker.http;

import io.shelfmark.broker.auth.Principal;
import io.shelfmark.broker.table.TableDirectory;
import io.shelfmark.broker.table.TableSchema;
import io.shelfmark.broker.table.TableStatus;
import io.shelfmark.config.security.UserRole;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP side of authorization: what a caller may see, and the 403 body when they may not act.
 */
final class Permissions {
  private Permissions() {}

  /**
   * {@code tables} as {@code caller} sees them: tables they may not read are absent, from listings,
   * lookups by name and schemas alike, so every endpoint answering from it says nothing of them.
   */
  static TableDirectory visible(Principal caller, TableDirectory tables) {
    if (caller.readsEverything()) {
      return tables;
    }
    return new TableDirectory() {
      @Override
      public List<TableStatus> tables() {
        return tables.tables().stream().filter(table -> caller.canRead(table.name())).toList();
      }

      @Override
      public Optional<TableStatus> table(String name) {
        return tables.table(name).filter(table -> caller.canRead(table.name()));
      }

      @Override
      public Optional<TableSchema> schema(String name) {
        return table(name).isPresent() ? tables.schema(name) : Optional.empty();
      }
    };
  }

  /** The body of a 403 for an action that needs the admin role. */
  static Map<String, Object> adminNeeded(Principal caller, String action) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put(
        "error",
        "Cannot "
            + action
            + ": user "
            + caller.name()
            + " does not have the admin role (it has "
            + caller.roles().stream().map(UserRole::configName).toList()
            + "; ask an administrator, see docs/security.md)");
    body.put("code", 403);
    body.put("requiredRole", UserRole.ADMIN.configName());
    return body;
  }

  /** The body of a 403 for an action that shows every table. */
  static Map<String, Object> allTablesNeeded(Principal caller, String action) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put(
        "error",
        "Cannot "
            + action
            + ": user "
            + caller.name()
            + " may read only some tables (needs tables: [\"*\"]; see docs/security.md)");
    body.put("code", 403);
    return body;
  }
}
