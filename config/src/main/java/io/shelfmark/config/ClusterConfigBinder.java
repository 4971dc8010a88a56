package io.shelfmark.config;

import static io.shelfmark.config.ClusterKeys.ACCESS_KEY_ID;
import static io.shelfmark.config.ClusterKeys.BROKER;
import static io.shelfmark.config.ClusterKeys.CACHE;
import static io.shelfmark.config.ClusterKeys.CATALOG;
import static io.shelfmark.config.ClusterKeys.CHEAP;
import static io.shelfmark.config.ClusterKeys.CLUSTER_NAME;
import static io.shelfmark.config.ClusterKeys.CONTROLLER;
import static io.shelfmark.config.ClusterKeys.DATA_DIR;
import static io.shelfmark.config.ClusterKeys.DECOMPRESSED;
import static io.shelfmark.config.ClusterKeys.DICTIONARIES;
import static io.shelfmark.config.ClusterKeys.DIRECTORY;
import static io.shelfmark.config.ClusterKeys.DISK;
import static io.shelfmark.config.ClusterKeys.ENDPOINT;
import static io.shelfmark.config.ClusterKeys.FLIGHT_PORT;
import static io.shelfmark.config.ClusterKeys.HEAVY;
import static io.shelfmark.config.ClusterKeys.HOST;
import static io.shelfmark.config.ClusterKeys.HTTP_PORT;
import static io.shelfmark.config.ClusterKeys.MAX_CONNECTIONS;
import static io.shelfmark.config.ClusterKeys.MAX_DISTINCT_VALUES;
import static io.shelfmark.config.ClusterKeys.MAX_DURATION;
import static io.shelfmark.config.ClusterKeys.MAX_GROUPS;
import static io.shelfmark.config.ClusterKeys.MAX_IN_LIST_ITEMS;
import static io.shelfmark.config.ClusterKeys.MAX_QUEUED;
import static io.shelfmark.config.ClusterKeys.MAX_RETRIES;
import static io.shelfmark.config.ClusterKeys.MAX_ROWS;
import static io.shelfmark.config.ClusterKeys.MAX_RUNNING;
import static io.shelfmark.config.ClusterKeys.MAX_SIZE;
import static io.shelfmark.config.ClusterKeys.MEMORY;
import static io.shelfmark.config.ClusterKeys.NAME;
import static io.shelfmark.config.ClusterKeys.PATH_STYLE_ACCESS;
import static io.shelfmark.config.ClusterKeys.POSTING_LISTS;
import static io.shelfmark.config.ClusterKeys.PROPERTIES;
import static io.shelfmark.config.ClusterKeys.QUERY;
import static io.shelfmark.config.ClusterKeys.REGION;
import static io.shelfmark.config.ClusterKeys.REQUEST_TIMEOUT;
import static io.shelfmark.config.ClusterKeys.ROLES;
import static io.shelfmark.config.ClusterKeys.ROOT;
import static io.shelfmark.config.ClusterKeys.ROUNDS;
import static io.shelfmark.config.ClusterKeys.RPC_PORT;
import static io.shelfmark.config.ClusterKeys.SECRET_ACCESS_KEY;
import static io.shelfmark.config.ClusterKeys.SEGMENT_MODE;
import static io.shelfmark.config.ClusterKeys.SEGMENT_STORE;
import static io.shelfmark.config.ClusterKeys.SERVER;
import static io.shelfmark.config.ClusterKeys.STORAGE;
import static io.shelfmark.config.ClusterKeys.TYPE;
import static io.shelfmark.config.ClusterKeys.WAREHOUSE;
import static io.shelfmark.config.ClusterKeys.WARMUP;

import com.google.common.collect.Sets;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.HttpConfig;
import io.shelfmark.config.cluster.PortsConfig;
import io.shelfmark.config.cluster.QueryConfig;
import io.shelfmark.config.cluster.Role;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.cluster.SqlLimitsConfig;
import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.config.cluster.WarmupConfig;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import io.shelfmark.config.security.SecurityConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a {@link ClusterConfig} from a parsed file, checking every key and the rules between keys.
 * Answers empty when any violation was found; the violations are in the context.
 */
final class ClusterConfigBinder {
  private ClusterConfigBinder() {}

  static Optional<ClusterConfig> bind(ConfigNode root) {
    BindContext context = root.context();
    String clusterName =
        root.string(
                CLUSTER_NAME,
                name -> ClusterConfig.CLUSTER_NAME_PATTERN.matcher(name).matches(),
                "letters, digits, '.', '_' and '-', starting with a letter or digit, at most 63")
            .orElse(ClusterConfig.DEFAULT_CLUSTER_NAME);
    Optional<Set<Role>> givenRoles =
        root.choices(ROLES, Role.values(), Role::configName).map(Sets::immutableEnumSet);
    Set<Role> roles = givenRoles.orElse(ClusterConfig.DEFAULT_ROLES);
    // With the roles themselves wrong, whether a catalog is required is unknown: do not guess.
    boolean rolesKnown = givenRoles.isPresent() || !root.isSet(ROLES);
    String host =
        root.string(
                HOST, text -> !text.isBlank(), "expected a host name or address such as 127.0.0.1")
            .orElse(ClusterConfig.DEFAULT_HOST);
    ConfigNode broker = root.section(BROKER);
    ConfigNode server = root.section(SERVER);
    ConfigNode controller = root.section(CONTROLLER);
    PortsConfig ports = bindPorts(broker, server, controller);
    Optional<StorageConfig> storage = bindStorage(root.section(STORAGE));
    Optional<CatalogConfig> catalog =
        bindCatalog(
            root,
            rolesKnown && roles.contains(Role.CONTROLLER),
            storage.map(StorageConfig::region).orElse(StorageConfig.DEFAULT_REGION));
    Optional<String> segmentStore =
        root.string(
            SEGMENT_STORE,
            ClusterConfig::isValidSegmentStore,
            "expected s3://bucket/prefix or an absolute directory");
    root.require(
        SEGMENT_STORE, "where segments are kept: s3://bucket/prefix or an absolute directory");
    Path dataDir =
        root.path(DATA_DIR, "expected a directory").orElse(ClusterConfig.DEFAULT_DATA_DIR);
    CacheConfig cache = bindCache(root.section(CACHE), dataDir);
    SegmentMode segmentMode =
        server
            .choice(SEGMENT_MODE, SegmentMode.values(), SegmentMode::configName)
            .orElse(ClusterConfig.DEFAULT_SEGMENT_MODE);
    WarmupConfig warmup = bindWarmup(server.section(WARMUP));
    HttpConfig http = bindHttp(broker.section(ClusterKeys.HTTP));
    SqlLimitsConfig sqlLimits = bindSqlLimits(broker.section(ClusterKeys.SQL));
    boolean allowRemote =
        broker.bool(ClusterKeys.ALLOW_UNAUTHENTICATED_REMOTE_ACCESS).orElse(false);
    Optional<SecurityConfig> security =
        SecurityConfigBinder.bind(root.section(ClusterKeys.SECURITY));
    if (security.isPresent()
        && root.isSet(HOST)
        && ClusterConfig.needsAuthentication(host, allowRemote, security.get())) {
      // Checked here too, not only by the record, so that `config check` lists it by key path
      // with every other violation.
      root.reject(HOST, ClusterConfig.REMOTE_BIND_HINT);
    }
    QueryConfig query = bindQuery(root.section(QUERY));
    ZooKeeperConfig zookeeper = bindZooKeeper(root.section(ClusterKeys.ZOOKEEPER));
    root.finish();
    if (context.hasViolations()) {
      return Optional.empty();
    }
    return Optional.of(
        new ClusterConfig(
            clusterName,
            roles,
            host,
            ports,
            storage.orElseThrow(),
            catalog,
            segmentStore.orElseThrow(),
            cache,
            dataDir,
            segmentMode,
            warmup,
            http,
            sqlLimits,
            allowRemote,
            query,
            security.orElseThrow(),
            zookeeper));
  }

  private static ZooKeeperConfig bindZooKeeper(ConfigNode zookeeper) {
    Optional<String> connect =
        zookeeper
            .string(
                ClusterKeys.CONNECT,
                text ->
                    text.strip().equals(ZooKeeperConfig.EMBEDDED)
                        || ZooKeeperConfig.isValidConnectString(text.strip()),
                "expected embedded, or host:port entries separated by commas such as"
                    + " zk1:2181,zk2:2181")
            .map(String::strip)
            .filter(text -> !text.equals(ZooKeeperConfig.EMBEDDED));
    int port =
        zookeeper
            .integer(ClusterKeys.PORT, ZooKeeperConfig.ANY_FREE_PORT, ZooKeeperConfig.MAX_PORT)
            .orElse(ZooKeeperConfig.ANY_FREE_PORT);
    if (connect.isPresent() && zookeeper.isSet(ClusterKeys.PORT)) {
      zookeeper.reject(
          ClusterKeys.PORT,
          "only for the embedded server, zookeeper.connect: embedded; an ensemble's ports are in"
              + " zookeeper.connect");
    }
    Duration session =
        zookeeper
            .duration(ClusterKeys.SESSION_TIMEOUT, ZooKeeperConfig.MIN_SESSION_TIMEOUT)
            .orElse(ZooKeeperConfig.DEFAULT_SESSION_TIMEOUT);
    if (session.compareTo(ZooKeeperConfig.MAX_SESSION_TIMEOUT) > 0) {
      zookeeper.reject(ClusterKeys.SESSION_TIMEOUT, "expected at most 10m");
      session = ZooKeeperConfig.DEFAULT_SESSION_TIMEOUT; // unused: the violation empties the result
    }
    Duration connection =
        zookeeper
            .duration(ClusterKeys.CONNECTION_TIMEOUT, ZooKeeperConfig.MIN_CONNECTION_TIMEOUT)
            .orElse(ZooKeeperConfig.DEFAULT_CONNECTION_TIMEOUT);
    return new ZooKeeperConfig(connect, port, session, connection);
  }

  private static HttpConfig bindHttp(ConfigNode http) {
    Duration requestRead =
        http.duration(ClusterKeys.REQUEST_READ_TIMEOUT, HttpConfig.MIN_TIMEOUT)
            .orElse(HttpConfig.DEFAULT_REQUEST_READ_TIMEOUT);
    Duration idle =
        http.duration(ClusterKeys.IDLE_TIMEOUT, HttpConfig.MIN_TIMEOUT)
            .orElse(HttpConfig.DEFAULT_IDLE_TIMEOUT);
    int max =
        http.integer(MAX_CONNECTIONS, 1, HttpConfig.MAX_MAX_CONNECTIONS)
            .orElse(HttpConfig.DEFAULT_MAX_CONNECTIONS);
    int perClient =
        http.integer(ClusterKeys.MAX_CONNECTIONS_PER_CLIENT, 1, HttpConfig.MAX_MAX_CONNECTIONS)
            .orElse(Math.min(max, HttpConfig.DEFAULT_MAX_CONNECTIONS_PER_CLIENT));
    if (perClient > max) {
      http.reject(
          ClusterKeys.MAX_CONNECTIONS_PER_CLIENT,
          "expected at most " + http.keyPath(MAX_CONNECTIONS) + ", " + max);
      return HttpConfig.defaults(); // unused: the violation empties the result
    }
    return new HttpConfig(requestRead, idle, max, perClient);
  }

  private static SqlLimitsConfig bindSqlLimits(ConfigNode sql) {
    return new SqlLimitsConfig(
        sql.integer(ClusterKeys.MAX_LENGTH, 1, SqlLimitsConfig.MAX_MAX_LENGTH)
            .orElse(SqlLimitsConfig.DEFAULT_MAX_LENGTH),
        sql.integer(ClusterKeys.MAX_EXPRESSION_DEPTH, 1, SqlLimitsConfig.MAX_MAX_EXPRESSION_DEPTH)
            .orElse(SqlLimitsConfig.DEFAULT_MAX_EXPRESSION_DEPTH),
        sql.integer(ClusterKeys.MAX_IN_LIST_SIZE, 1, SqlLimitsConfig.MAX_MAX_IN_LIST_SIZE)
            .orElse(SqlLimitsConfig.DEFAULT_MAX_IN_LIST_SIZE),
        sql.integer(ClusterKeys.MAX_LOGICAL_TERMS, 2, SqlLimitsConfig.MAX_MAX_LOGICAL_TERMS)
            .orElse(SqlLimitsConfig.DEFAULT_MAX_LOGICAL_TERMS));
  }

  private static QueryConfig bindQuery(ConfigNode query) {
    ConfigNode heavy = query.section(HEAVY);
    ConfigNode cheap = query.section(CHEAP);
    int most = Integer.MAX_VALUE;
    return new QueryConfig(
        heavy.integer(MAX_RUNNING, 1, most).orElse(QueryConfig.DEFAULT_HEAVY_MAX_RUNNING),
        heavy
            .integer(MAX_QUEUED, 0, QueryConfig.MAX_QUEUED)
            .orElse(QueryConfig.DEFAULT_HEAVY_MAX_QUEUED),
        cheap.integer(MAX_RUNNING, 1, most).orElse(QueryConfig.DEFAULT_CHEAP_MAX_RUNNING),
        cheap
            .integer(MAX_QUEUED, 0, QueryConfig.MAX_QUEUED)
            .orElse(QueryConfig.DEFAULT_CHEAP_MAX_QUEUED),
        cheap
            .integer(MAX_ROWS, 0, most)
            .map(Integer::longValue)
            .orElse(QueryConfig.DEFAULT_CHEAP_MAX_ROWS),
        query
            .integer(MAX_GROUPS, 1, most)
            .map(Integer::longValue)
            .orElse(QueryConfig.DEFAULT_MAX_GROUPS),
        query
            .integer(MAX_DISTINCT_VALUES, 1, most)
            .map(Integer::longValue)
            .orElse(QueryConfig.DEFAULT_MAX_DISTINCT_VALUES),
        query
            .integer(MAX_ROWS, 1, most)
            .map(Integer::longValue)
            .orElse(QueryConfig.DEFAULT_MAX_ROWS),
        query.integer(MAX_IN_LIST_ITEMS, 1, most).orElse(QueryConfig.DEFAULT_MAX_IN_LIST_ITEMS),
        query
            .duration(ClusterKeys.SLOW_THRESHOLD, QueryConfig.MIN_SLOW_THRESHOLD)
            .orElse(QueryConfig.DEFAULT_SLOW_THRESHOLD),
        query.bool(ClusterKeys.SLOW_PROFILE).orElse(QueryConfig.DEFAULT_SLOW_PROFILE),
        query
            .dataSize(ClusterKeys.READ_REQUEST_COST)
            .orElse(QueryConfig.DEFAULT_READ_REQUEST_COST));
  }

  private static WarmupConfig bindWarmup(ConfigNode warmup) {
    return new WarmupConfig(
        warmup.integer(ROUNDS, 0, WarmupConfig.MAX_ROUNDS).orElse(WarmupConfig.DEFAULT_ROUNDS),
        warmup
            .duration(MAX_DURATION, WarmupConfig.MIN_MAX_DURATION)
            .orElse(WarmupConfig.DEFAULT_MAX_DURATION));
  }

  private static PortsConfig bindPorts(
      ConfigNode broker, ConfigNode server, ConfigNode controller) {
    int brokerPort =
        broker
            .integer(HTTP_PORT, PortsConfig.MIN_PORT, PortsConfig.MAX_PORT)
            .orElse(PortsConfig.DEFAULT_BROKER_HTTP_PORT);
    int serverPort =
        server
            .integer(RPC_PORT, PortsConfig.MIN_PORT, PortsConfig.MAX_PORT)
            .orElse(PortsConfig.DEFAULT_SERVER_RPC_PORT);
    int controllerPort =
        controller
            .integer(HTTP_PORT, PortsConfig.MIN_PORT, PortsConfig.MAX_PORT)
            .orElse(PortsConfig.DEFAULT_CONTROLLER_HTTP_PORT);
    int flightPort =
        broker
            .integer(FLIGHT_PORT, PortsConfig.MIN_PORT, PortsConfig.MAX_PORT)
            .orElse(PortsConfig.DEFAULT_BROKER_FLIGHT_PORT);
    return new PortsConfig(brokerPort, serverPort, controllerPort, flightPort);
  }

  private static Optional<StorageConfig> bindStorage(ConfigNode storage) {
    Optional<StorageType> type =
        storage.choice(TYPE, StorageType.values(), StorageType::configName);
    Optional<URI> endpoint = uri(storage, ENDPOINT);
    String region =
        storage
            .string(REGION, text -> !text.isBlank(), "expected a region such as us-east-1")
            .orElse(StorageConfig.DEFAULT_REGION);
    boolean pathStyle =
        storage.bool(PATH_STYLE_ACCESS).orElse(StorageConfig.DEFAULT_PATH_STYLE_ACCESS);
    Optional<String> accessKeyId =
        storage.string(ACCESS_KEY_ID, text -> !text.isBlank(), "expected an access key id");
    Optional<String> secretAccessKey =
        storage.secret(SECRET_ACCESS_KEY, "expected a secret access key");
    Optional<Path> root = storage.path(ROOT, "expected the directory holding the data");
    int maxConnections =
        storage
            .integer(MAX_CONNECTIONS, 1, StorageConfig.MAX_MAX_CONNECTIONS)
            .orElse(StorageConfig.DEFAULT_MAX_CONNECTIONS);
    Duration requestTimeout =
        storage
            .duration(REQUEST_TIMEOUT, Duration.ofMillis(1))
            .orElse(StorageConfig.DEFAULT_REQUEST_TIMEOUT);
    int maxRetries =
        storage
            .integer(MAX_RETRIES, 0, StorageConfig.MAX_MAX_RETRIES)
            .orElse(StorageConfig.DEFAULT_MAX_RETRIES);

    checkCredentialsPair(storage);
    // With the type itself wrong, the rules that depend on it would only add noise.
    boolean typeKnown = type.isPresent() || !storage.isSet(TYPE);
    StorageType resolvedType = type.orElse(StorageConfig.DEFAULT_TYPE);
    if (typeKnown) {
      checkRulesByType(storage, resolvedType);
    }
    if (storage.context().hasViolations()) {
      return Optional.empty();
    }
    Optional<StaticCredentials> credentials =
        accessKeyId.map(id -> new StaticCredentials(id, secretAccessKey.orElseThrow()));
    return Optional.of(
        new StorageConfig(
            resolvedType,
            endpoint,
            region,
            pathStyle,
            credentials,
            root,
            maxConnections,
            requestTimeout,
            maxRetries));
  }

  private static void checkRulesByType(ConfigNode storage, StorageType type) {
    if (type == StorageType.LOCAL) {
      storage.require(ROOT, "required when storage.type is local: the directory holding the data");
      for (String s3Only : new String[] {ENDPOINT, ACCESS_KEY_ID, SECRET_ACCESS_KEY}) {
        if (storage.isSet(s3Only)) {
          storage.reject(s3Only, "only for storage.type s3; remove it or set storage.type: s3");
        }
      }
    } else if (storage.isSet(ROOT)) {
      storage.reject(ROOT, "only for storage.type local; remove it or set storage.type: local");
    }
  }

  private static void checkCredentialsPair(ConfigNode storage) {
    boolean hasId = storage.isSet(ACCESS_KEY_ID);
    boolean hasSecret = storage.isSet(SECRET_ACCESS_KEY);
    if (hasId == hasSecret) {
      return;
    }
    String given = storage.keyPath(hasId ? ACCESS_KEY_ID : SECRET_ACCESS_KEY);
    String missing = storage.keyPath(hasId ? SECRET_ACCESS_KEY : ACCESS_KEY_ID);
    storage
        .context()
        .add(
            missing,
            "Cannot use "
                + storage.context().describe(given)
                + " without "
                + missing
                + " (set both, or neither to use the AWS default credentials chain)");
  }

  private static Optional<URI> uri(ConfigNode section, String key) {
    String hint = "expected an http:// or https:// URL such as http://127.0.0.1:9000";
    Optional<String> text = section.string(key, ClusterConfigBinder::isHttpUrl, hint);
    return text.map(value -> URI.create(value.strip()));
  }

  private static boolean isHttpUrl(String text) {
    try {
      URI uri = new URI(text.strip());
      return ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
          && uri.getHost() != null;
    } catch (URISyntaxException e) {
      return false; // the caller reports the value as not a URL
    }
  }

  private static Optional<CatalogConfig> bindCatalog(
      ConfigNode root, boolean required, String storageRegion) {
    boolean present = root.isSet(CATALOG);
    ConfigNode catalog = root.section(CATALOG);
    if (present && !root.isSection(CATALOG)) {
      return Optional.empty(); // reported by section(); its keys cannot be checked
    }
    Optional<CatalogType> type =
        catalog.choice(TYPE, CatalogType.values(), CatalogType::configName);
    String name =
        catalog
            .string(NAME, text -> !text.isBlank(), "expected the catalog's name, such as lake")
            .orElse(CatalogConfig.DEFAULT_NAME);
    Optional<String> uri =
        catalog.string(ClusterKeys.URI, text -> !text.isBlank(), "expected a URI");
    Optional<String> warehouse =
        catalog.string(
            WAREHOUSE, text -> !text.isBlank(), "expected a location such as s3://lake/warehouse");
    Map<String, String> properties =
        catalog.stringMap(PROPERTIES, CatalogConfig::isSecretProperty).orElse(Map.of());
    if (!present) {
      if (required) {
        catalog.require(
            TYPE, "a controller reads tables from an Iceberg catalog: jdbc, rest or glue");
      }
      return Optional.empty();
    }
    catalog.require(TYPE, "allowed: jdbc, rest, glue");
    if (type.isEmpty()) {
      return Optional.empty();
    }
    checkRulesByType(catalog, type.get(), uri);
    if (type.get() == CatalogType.GLUE) {
      properties = GlueCatalogRules.check(catalog, properties, warehouse, storageRegion);
    }
    if (catalog.context().hasViolations()) {
      return Optional.empty();
    }
    return Optional.of(new CatalogConfig(type.get(), name, uri, warehouse, properties));
  }

  private static void checkRulesByType(ConfigNode catalog, CatalogType type, Optional<String> uri) {
    switch (type) {
      case JDBC -> {
        catalog.require(
            ClusterKeys.URI,
            "required when catalog.type is jdbc, such as jdbc:sqlite:/path/catalog.db");
        uri.filter(text -> !text.startsWith("jdbc:"))
            .ifPresent(
                text ->
                    catalog.reject(
                        ClusterKeys.URI,
                        "expected a JDBC URL such as jdbc:sqlite:/path/catalog.db"));
        catalog.require(
            WAREHOUSE, "required when catalog.type is jdbc, such as s3://lake/warehouse");
      }
      case REST -> {
        catalog.require(
            ClusterKeys.URI, "required when catalog.type is rest: the catalog's base URL");
        uri.filter(text -> !isHttpUrl(text))
            .ifPresent(
                text -> catalog.reject(ClusterKeys.URI, "expected an http:// or https:// URL"));
      }
      case GLUE -> {
        if (uri.isPresent()) {
          catalog.reject(ClusterKeys.URI, "not used when catalog.type is glue; remove it");
        }
      }
    }
  }

  private static CacheConfig bindCache(ConfigNode cache, Path dataDir) {
    ConfigNode memory = cache.section(MEMORY);
    ConfigNode disk = cache.section(DISK);
    return new CacheConfig(
        memory.dataSize(MAX_SIZE).orElse(CacheConfig.DEFAULT_MEMORY_MAX_SIZE),
        disk.dataSize(MAX_SIZE).orElse(CacheConfig.DEFAULT_DISK_MAX_SIZE),
        disk.path(DIRECTORY, "expected a directory")
            .orElse(dataDir.resolve(CacheConfig.DEFAULT_DISK_DIRECTORY_NAME)),
        cache
            .section(DECOMPRESSED)
            .dataSize(MAX_SIZE)
            .orElse(CacheConfig.DEFAULT_DECOMPRESSED_MAX_SIZE),
        cache
            .section(POSTING_LISTS)
            .dataSize(MAX_SIZE)
            .orElse(CacheConfig.DEFAULT_POSTING_LISTS_MAX_SIZE),
        cache
            .section(DICTIONARIES)
            .dataSize(MAX_SIZE)
            .orElse(CacheConfig.DEFAULT_DICTIONARIES_MAX_SIZE));
  }
}
