package io.shelfmark.broker.auth;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.Sets;
import io.shelfmark.config.security.TablePattern;
import io.shelfmark.config.security.UserConfig;
import io.shelfmark.config.security.UserRole;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The caller of one HTTP request: a configured user, or {@link #UNAUTHENTICATED} when the node has
 * no users (everything allowed, as before authentication existed).
 *
 * @param name the user name, for messages and logs
 * @param roles what the caller may do
 * @param tables the tables the caller may read
 */
public record Principal(String name, Set<UserRole> roles, List<TablePattern> tables)
    implements TableAccess {
  /** The caller of a node without users: every role, every table. */
  public static final Principal UNAUTHENTICATED =
      new Principal("anonymous", EnumSet.allOf(UserRole.class), List.of(TablePattern.ALL));

  public Principal {
    requireNonNull(name, "name is null");
    roles = Sets.immutableEnumSet(requireNonNull(roles, "roles is null"));
    tables = List.copyOf(requireNonNull(tables, "tables is null"));
  }

  static Principal of(UserConfig user) {
    return new Principal(user.name(), user.roles(), user.tables());
  }

  /** Whether this caller may do what {@code role} allows. */
  public boolean has(UserRole role) {
    requireNonNull(role, "role is null");
    return roles.stream().anyMatch(held -> held.grants(role));
  }

  @Override
  public boolean canRead(String table) {
    return tables.stream().anyMatch(pattern -> pattern.matches(table));
  }

  @Override
  public boolean readsEverything() {
    return tables.contains(TablePattern.ALL);
  }
}
