package io.shelfmark.config.security;

/**
 * What a user may do through the HTTP API. {@link #ADMIN} includes everything {@link #QUERY} may
 * do, so an administrator needs one role, not two.
 */
public enum UserRole {
  /** Run SQL and read table lists, schemas and status (of the tables the user may read). */
  QUERY("query"),
  /** Change the cluster: onboard tables ({@code POST /tables}), and future drop/refresh/config. */
  ADMIN("admin");

  private final String configName;

  UserRole(String configName) {
    this.configName = configName;
  }

  /** The name in config files, such as {@code query}. */
  public String configName() {
    return configName;
  }

  /** Whether a user holding this role may do what {@code needed} allows. */
  public boolean grants(UserRole needed) {
    return this == needed || this == ADMIN;
  }
}
