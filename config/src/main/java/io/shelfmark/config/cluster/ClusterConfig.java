package io.shelfmark.config.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import com.google.common.collect.Sets;
import com.google.common.net.InetAddresses;
import io.shelfmark.config.security.SecurityConfig;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The configuration of one Shelfmark process: which roles it plays, where it listens, where the
 * data and segments live, and how large its cache may grow. Load it from a file with {@code
 * io.shelfmark.config.ConfigLoader#loadCluster}, or build it with {@link #builder()}.
 *
 * <p>Immutable and thread safe.
 *
 * @param clusterName names the cluster in logs, metrics and the metadata store ({@code
 *     cluster-name})
 * @param roles the roles this process plays, never empty ({@code roles})
 * @param host the address this process binds and advertises ({@code host})
 * @param ports the listening ports ({@code broker.http-port}, {@code server.rpc-port}, {@code
 *     controller.http-port})
 * @param storage where Parquet data files are read from ({@code storage.*})
 * @param catalog the Iceberg catalog ({@code catalog.*}); required when the process is a controller
 * @param segmentStore where segments are written and read: {@code s3://bucket/prefix} or an
 *     absolute local directory ({@code segment-store})
 * @param cache the tiered cache's bounds ({@code cache.*})
 * @param dataDir the local working directory for pinned segments, cache and state ({@code
 *     data-dir}); may be relative to the process's working directory
 * @param segmentMode whether servers pin segments on local disk or read them remotely ({@code
 *     server.segment-mode})
 * @param warmup how the node warms up before reporting its first table ready ({@code
 *     server.warmup.*})
 * @param http the broker's connection limits and timeouts ({@code broker.http.*})
 * @param sqlLimits how large a query the broker plans ({@code broker.sql.*})
 * @param allowUnauthenticatedRemoteAccess whether {@code host} may be an address other than
 *     loopback without users: anyone who reaches the port can then query every table and onboard
 *     tables ({@code broker.allow-unauthenticated-remote-access}, default false)
 * @param query admission lanes and per-query limits ({@code query.*})
 * @param security users, roles and TLS of the HTTP API ({@code security.*})
 * @param zookeeper where the cluster's state lives: the embedded server or an ensemble ({@code
 *     zookeeper.*})
 */
public record ClusterConfig(
    String clusterName,
    Set<Role> roles,
    String host,
    PortsConfig ports,
    StorageConfig storage,
    Optional<CatalogConfig> catalog,
    String segmentStore,
    CacheConfig cache,
    Path dataDir,
    SegmentMode segmentMode,
    WarmupConfig warmup,
    HttpConfig http,
    SqlLimitsConfig sqlLimits,
    boolean allowUnauthenticatedRemoteAccess,
    QueryConfig query,
    SecurityConfig security,
    ZooKeeperConfig zookeeper) {
  public static final String DEFAULT_CLUSTER_NAME = "shelfmark";
  public static final Set<Role> DEFAULT_ROLES = Sets.immutableEnumSet(EnumSet.allOf(Role.class));
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final Path DEFAULT_DATA_DIR = Path.of(".shelfmark");
  public static final SegmentMode DEFAULT_SEGMENT_MODE = SegmentMode.PINNED;

  /**
   * Letters, digits, {@code .}, {@code _} and {@code -}; 1 to 63 characters, not starting with a
   * sign.
   */
  public static final Pattern CLUSTER_NAME_PATTERN =
      Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

  public ClusterConfig {
    requireNonNull(clusterName, "clusterName is null");
    roles = Sets.immutableEnumSet(requireNonNull(roles, "roles is null"));
    requireNonNull(host, "host is null");
    requireNonNull(ports, "ports is null");
    requireNonNull(storage, "storage is null");
    requireNonNull(catalog, "catalog is null");
    requireNonNull(segmentStore, "segmentStore is null");
    requireNonNull(cache, "cache is null");
    requireNonNull(dataDir, "dataDir is null");
    requireNonNull(segmentMode, "segmentMode is null");
    requireNonNull(warmup, "warmup is null");
    requireNonNull(http, "http is null");
    requireNonNull(sqlLimits, "sqlLimits is null");
    requireNonNull(query, "query is null");
    requireNonNull(security, "security is null");
    requireNonNull(zookeeper, "zookeeper is null");
    checkArgument(
        CLUSTER_NAME_PATTERN.matcher(clusterName).matches(),
        "Cannot use cluster-name: \"%s\" (letters, digits, '.', '_' and '-', at most 63)",
        clusterName);
    checkArgument(!roles.isEmpty(), "Cannot use roles: empty (name at least one role)");
    checkArgument(!host.isBlank(), "Cannot use host: blank (e.g. 127.0.0.1)");
    checkArgument(
        !needsAuthentication(host, allowUnauthenticatedRemoteAccess, security),
        "Cannot use host: %s (%s)",
        host,
        REMOTE_BIND_HINT);
    checkArgument(
        catalog.isPresent() || !roles.contains(Role.CONTROLLER),
        "Cannot use roles with controller without a catalog section");
    checkArgument(
        isValidSegmentStore(segmentStore),
        "Cannot use segment-store: \"%s\" (expected s3://bucket/prefix or an absolute path)",
        segmentStore);
  }

  /** Why a non-loopback {@code host} without users is refused, and the ways out. */
  public static final String REMOTE_BIND_HINT =
      "without authentication anyone who reaches the port could query every table and onboard"
          + " tables: add users under security.users (docs/security.md), or set"
          + " broker.allow-unauthenticated-remote-access: true when something in front of the node"
          + " authenticates";

  /**
   * Whether this combination is refused: an address other than loopback, without users and without
   * the explicit override. The one predicate behind config check, the loader and this record.
   */
  public static boolean needsAuthentication(
      String host, boolean allowUnauthenticatedRemoteAccess, SecurityConfig security) {
    return !isLoopback(host)
        && !security.authenticationConfigured()
        && !allowUnauthenticatedRemoteAccess;
  }

  /**
   * Whether HTTP requests must carry credentials ({@code security.users} names at least one user).
   */
  public boolean authenticationConfigured() {
    return security.authenticationConfigured();
  }

  /**
   * Whether {@code host} names this machine's loopback interface only: {@code localhost}, an
   * address in 127.0.0.0/8 or {@code ::1}. Judged from the text without a DNS lookup, so any other
   * name counts as remote.
   */
  public static boolean isLoopback(String host) {
    requireNonNull(host, "host is null");
    String text = host.strip();
    if (text.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (text.startsWith("[") && text.endsWith("]")) {
      text = text.substring(1, text.length() - 1);
    }
    return InetAddresses.isInetAddress(text) && InetAddresses.forString(text).isLoopbackAddress();
  }

  /**
   * Whether {@code location} can be a segment store: {@code s3://bucket[/prefix]} ({@code s3a://}
   * too), {@code file:/absolute/path} or an absolute path.
   */
  public static boolean isValidSegmentStore(String location) {
    requireNonNull(location, "location is null");
    for (String scheme : new String[] {"s3://", "s3a://"}) {
      if (location.startsWith(scheme)) {
        String rest = location.substring(scheme.length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        return !bucket.isEmpty();
      }
    }
    return location.startsWith("/") || location.startsWith("file:/");
  }

  /** Whether this process plays {@code role}. */
  public boolean hasRole(Role role) {
    return roles.contains(role);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds a {@link ClusterConfig}; each setting may be set once, unset ones take defaults. {@code
   * segmentStore} is required, and so is {@code catalog} when the roles include the controller.
   */
  public static final class Builder {
    private String clusterName;
    private Set<Role> roles;
    private String host;
    private PortsConfig ports;
    private StorageConfig storage;
    private CatalogConfig catalog;
    private String segmentStore;
    private CacheConfig cache;
    private Path dataDir;
    private SegmentMode segmentMode;
    private WarmupConfig warmup;
    private HttpConfig http;
    private SqlLimitsConfig sqlLimits;
    private Boolean allowUnauthenticatedRemoteAccess;
    private QueryConfig query;
    private SecurityConfig security;
    private ZooKeeperConfig zookeeper;

    private Builder() {}

    public Builder clusterName(String clusterName) {
      checkUnset("clusterName", this.clusterName);
      this.clusterName = requireNonNull(clusterName, "clusterName is null");
      return this;
    }

    public Builder roles(Set<Role> roles) {
      checkUnset("roles", this.roles);
      this.roles = ImmutableSet.copyOf(requireNonNull(roles, "roles is null"));
      return this;
    }

    public Builder roles(Role first, Role... rest) {
      return roles(Sets.immutableEnumSet(first, rest));
    }

    public Builder host(String host) {
      checkUnset("host", this.host);
      this.host = requireNonNull(host, "host is null");
      return this;
    }

    public Builder ports(PortsConfig ports) {
      checkUnset("ports", this.ports);
      this.ports = requireNonNull(ports, "ports is null");
      return this;
    }

    public Builder storage(StorageConfig storage) {
      checkUnset("storage", this.storage);
      this.storage = requireNonNull(storage, "storage is null");
      return this;
    }

    public Builder catalog(CatalogConfig catalog) {
      checkUnset("catalog", this.catalog);
      this.catalog = requireNonNull(catalog, "catalog is null");
      return this;
    }

    public Builder segmentStore(String segmentStore) {
      checkUnset("segmentStore", this.segmentStore);
      this.segmentStore = requireNonNull(segmentStore, "segmentStore is null");
      return this;
    }

    /** The cache bounds; when unset, {@link CacheConfig#defaults} under the data directory. */
    public Builder cache(CacheConfig cache) {
      checkUnset("cache", this.cache);
      this.cache = requireNonNull(cache, "cache is null");
      return this;
    }

    public Builder dataDir(Path dataDir) {
      checkUnset("dataDir", this.dataDir);
      this.dataDir = requireNonNull(dataDir, "dataDir is null");
      return this;
    }

    public Builder segmentMode(SegmentMode segmentMode) {
      checkUnset("segmentMode", this.segmentMode);
      this.segmentMode = requireNonNull(segmentMode, "segmentMode is null");
      return this;
    }

    /** The warm-up; when unset, {@link WarmupConfig#defaults}. */
    public Builder warmup(WarmupConfig warmup) {
      checkUnset("warmup", this.warmup);
      this.warmup = requireNonNull(warmup, "warmup is null");
      return this;
    }

    /** The connection limits; when unset, {@link HttpConfig#defaults}. */
    public Builder http(HttpConfig http) {
      checkUnset("http", this.http);
      this.http = requireNonNull(http, "http is null");
      return this;
    }

    /** The SQL size limits; when unset, {@link SqlLimitsConfig#defaults}. */
    public Builder sqlLimits(SqlLimitsConfig sqlLimits) {
      checkUnset("sqlLimits", this.sqlLimits);
      this.sqlLimits = requireNonNull(sqlLimits, "sqlLimits is null");
      return this;
    }

    /** Whether a non-loopback host is accepted without authentication; false when unset. */
    public Builder allowUnauthenticatedRemoteAccess(boolean allow) {
      checkUnset("allowUnauthenticatedRemoteAccess", this.allowUnauthenticatedRemoteAccess);
      this.allowUnauthenticatedRemoteAccess = allow;
      return this;
    }

    /** Admission lanes and query limits; when unset, {@link QueryConfig#defaults}. */
    public Builder query(QueryConfig query) {
      checkUnset("query", this.query);
      this.query = requireNonNull(query, "query is null");
      return this;
    }

    /** Users and TLS of the HTTP API; when unset, {@link SecurityConfig#NONE}. */
    public Builder security(SecurityConfig security) {
      checkUnset("security", this.security);
      this.security = requireNonNull(security, "security is null");
      return this;
    }

    /** Where the cluster's state lives; when unset, {@link ZooKeeperConfig#embedded}. */
    public Builder zookeeper(ZooKeeperConfig zookeeper) {
      checkUnset("zookeeper", this.zookeeper);
      this.zookeeper = requireNonNull(zookeeper, "zookeeper is null");
      return this;
    }

    /**
     * @throws IllegalStateException if {@code segmentStore} is unset
     * @throws IllegalArgumentException if a setting is invalid (see the record)
     */
    public ClusterConfig build() {
      checkState(segmentStore != null, "Cannot build cluster config: segmentStore is not set");
      Path resolvedDataDir = dataDir == null ? DEFAULT_DATA_DIR : dataDir;
      return new ClusterConfig(
          clusterName == null ? DEFAULT_CLUSTER_NAME : clusterName,
          roles == null ? DEFAULT_ROLES : roles,
          host == null ? DEFAULT_HOST : host,
          ports == null ? PortsConfig.defaults() : ports,
          storage == null ? StorageConfig.defaults() : storage,
          Optional.ofNullable(catalog),
          segmentStore,
          cache == null ? CacheConfig.defaults(resolvedDataDir) : cache,
          resolvedDataDir,
          segmentMode == null ? DEFAULT_SEGMENT_MODE : segmentMode,
          warmup == null ? WarmupConfig.defaults() : warmup,
          http == null ? HttpConfig.defaults() : http,
          sqlLimits == null ? SqlLimitsConfig.defaults() : sqlLimits,
          Boolean.TRUE.equals(allowUnauthenticatedRemoteAccess),
          query == null ? QueryConfig.defaults() : query,
          security == null ? SecurityConfig.NONE : security,
          zookeeper == null ? ZooKeeperConfig.embedded() : zookeeper);
    }

    private static void checkUnset(String name, Object current) {
      checkState(current == null, "Cannot set %s twice: already set to %s", name, current);
    }
  }
}
