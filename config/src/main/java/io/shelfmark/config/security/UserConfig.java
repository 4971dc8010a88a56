package io.shelfmark.config.security;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.Sets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One user of the HTTP API ({@code security.users.<name>}): how they prove who they are, what they
 * may do and which tables they may read.
 *
 * @param name the user name, as sent in HTTP Basic
 * @param passwordHash checks HTTP Basic passwords ({@code password-hash}); empty: no Basic login
 * @param tokenHash checks bearer tokens ({@code token-hash}); empty: no token login
 * @param roles what the user may do ({@code roles}), never empty
 * @param tables the tables the user may read ({@code tables}); {@link TablePattern#ALL} by default
 */
public record UserConfig(
    String name,
    Optional<PasswordHash> passwordHash,
    Optional<TokenHash> tokenHash,
    Set<UserRole> roles,
    List<TablePattern> tables) {
  /** Letters, digits, {@code . _ @ -}; no {@code :}, which HTTP Basic uses to end the user name. */
  public static final Pattern NAME_PATTERN = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

  /**
   * Taken by the node itself: its warm-up queries its own broker as this user with a token made at
   * start-up, so config files may not name it.
   */
  public static final String RESERVED_NAME = "shelfmark-warmup";

  public UserConfig {
    requireNonNull(name, "name is null");
    requireNonNull(passwordHash, "passwordHash is null");
    requireNonNull(tokenHash, "tokenHash is null");
    roles = Sets.immutableEnumSet(requireNonNull(roles, "roles is null"));
    tables = List.copyOf(requireNonNull(tables, "tables is null"));
    checkArgument(
        NAME_PATTERN.matcher(name).matches(),
        "Cannot use user name: \"%s\" (letters, digits, '.', '_', '@' and '-', at most 64)",
        name);
    checkArgument(
        passwordHash.isPresent() || tokenHash.isPresent(),
        "Cannot use user %s: no password-hash and no token-hash (give one to let them log in)",
        name);
    checkArgument(!roles.isEmpty(), "Cannot use user %s: no roles (allowed: query, admin)", name);
    checkArgument(!tables.isEmpty(), "Cannot use user %s: empty tables (use * for all)", name);
  }

  /** Whether this user may do what {@code role} allows. */
  public boolean has(UserRole role) {
    requireNonNull(role, "role is null");
    return roles.stream().anyMatch(held -> held.grants(role));
  }

  /** Whether this user may read the table with SQL name {@code table}. */
  public boolean canRead(String table) {
    return tables.stream().anyMatch(pattern -> pattern.matches(table));
  }
}
