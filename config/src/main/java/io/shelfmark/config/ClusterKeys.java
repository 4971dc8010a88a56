package io.shelfmark.config;

import com.google.common.collect.ImmutableList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every key of a cluster config file, as dotted paths. The binder reads these and the environment
 * override mapping is derived from them, so both stay in step ({@code TestClusterKeys} checks that
 * the binder reads exactly these and the docs mention each).
 */
final class ClusterKeys {
  static final String CLUSTER_NAME = "cluster-name";
  static final String ROLES = "roles";
  static final String HOST = "host";
  static final String BROKER = "broker";
  static final String SERVER = "server";
  static final String CONTROLLER = "controller";
  static final String HTTP_PORT = "http-port";
  static final String RPC_PORT = "rpc-port";
  static final String FLIGHT_PORT = "flight-port";
  static final String SEGMENT_MODE = "segment-mode";
  static final String WARMUP = "warmup";
  static final String ROUNDS = "rounds";
  static final String MAX_DURATION = "max-duration";
  static final String STORAGE = "storage";
  static final String CATALOG = "catalog";
  static final String SEGMENT_STORE = "segment-store";
  static final String CACHE = "cache";
  static final String DATA_DIR = "data-dir";
  static final String HTTP = "http";
  static final String REQUEST_READ_TIMEOUT = "request-read-timeout";
  static final String IDLE_TIMEOUT = "idle-timeout";
  static final String MAX_CONNECTIONS_PER_CLIENT = "max-connections-per-client";
  static final String SQL = "sql";
  static final String MAX_LENGTH = "max-length";
  static final String MAX_EXPRESSION_DEPTH = "max-expression-depth";
  static final String MAX_IN_LIST_SIZE = "max-in-list-size";
  static final String MAX_LOGICAL_TERMS = "max-logical-terms";
  static final String SECURITY = "security";
  static final String USERS = "users";
  static final String PASSWORD_HASH = "password-hash";
  static final String TOKEN_HASH = "token-hash";
  static final String TABLES = "tables";
  static final String TLS = "tls";
  static final String CERTIFICATE_FILE = "certificate-file";
  static final String PRIVATE_KEY_FILE = "private-key-file";
  static final String PRIVATE_KEY_PASSWORD = "private-key-password";
  static final String ALLOW_UNAUTHENTICATED_REMOTE_ACCESS = "allow-unauthenticated-remote-access";
  static final String QUERY = "query";
  static final String HEAVY = "heavy";
  static final String CHEAP = "cheap";
  static final String MAX_RUNNING = "max-running";
  static final String MAX_QUEUED = "max-queued";
  static final String MAX_ROWS = "max-rows";
  static final String MAX_GROUPS = "max-groups";
  static final String MAX_DISTINCT_VALUES = "max-distinct-values";
  static final String MAX_IN_LIST_ITEMS = "max-in-list-items";
  static final String SLOW_THRESHOLD = "slow-threshold";
  static final String SLOW_PROFILE = "slow-profile";
  static final String READ_REQUEST_COST = "read-request-cost";
  static final String ZOOKEEPER = "zookeeper";
  static final String CONNECT = "connect";
  static final String PORT = "port";
  static final String SESSION_TIMEOUT = "session-timeout";
  static final String CONNECTION_TIMEOUT = "connection-timeout";

  static final String TYPE = "type";
  static final String ENDPOINT = "endpoint";
  static final String REGION = "region";
  static final String PATH_STYLE_ACCESS = "path-style-access";
  static final String ACCESS_KEY_ID = "access-key-id";
  static final String SECRET_ACCESS_KEY = "secret-access-key";
  static final String ROOT = "root";
  static final String MAX_CONNECTIONS = "max-connections";
  static final String REQUEST_TIMEOUT = "request-timeout";
  static final String MAX_RETRIES = "max-retries";

  static final String NAME = "name";
  static final String URI = "uri";
  static final String WAREHOUSE = "warehouse";
  static final String PROPERTIES = "properties";

  static final String MEMORY = "memory";
  static final String DISK = "disk";
  static final String DECOMPRESSED = "decompressed";
  static final String DICTIONARIES = "dictionaries";
  static final String POSTING_LISTS = "posting-lists";
  static final String MAX_SIZE = "max-size";
  static final String DIRECTORY = "directory";

  /** The catalog section's free-form map: its entries are the user's, not ours. */
  static final String CATALOG_PROPERTIES = CATALOG + "." + PROPERTIES;

  /**
   * The users section: one section per user name, each with {@link #USER_KEYS}. User names are the
   * operator's, so no environment variable can name them.
   */
  static final String SECURITY_USERS = SECURITY + "." + USERS;

  /** The keys of one user under {@link #SECURITY_USERS}. */
  static final List<String> USER_KEYS = List.of(PASSWORD_HASH, TOKEN_HASH, ROLES, TABLES);

  /** Every key that holds a value, in the order the docs list them. */
  static final List<String> ALL =
      ImmutableList.of(
          CLUSTER_NAME,
          ROLES,
          HOST,
          BROKER + "." + HTTP_PORT,
          BROKER + "." + FLIGHT_PORT,
          BROKER + "." + ALLOW_UNAUTHENTICATED_REMOTE_ACCESS,
          BROKER + "." + HTTP + "." + REQUEST_READ_TIMEOUT,
          BROKER + "." + HTTP + "." + IDLE_TIMEOUT,
          BROKER + "." + HTTP + "." + MAX_CONNECTIONS,
          BROKER + "." + HTTP + "." + MAX_CONNECTIONS_PER_CLIENT,
          BROKER + "." + SQL + "." + MAX_LENGTH,
          BROKER + "." + SQL + "." + MAX_EXPRESSION_DEPTH,
          BROKER + "." + SQL + "." + MAX_IN_LIST_SIZE,
          BROKER + "." + SQL + "." + MAX_LOGICAL_TERMS,
          SERVER + "." + RPC_PORT,
          SERVER + "." + SEGMENT_MODE,
          SERVER + "." + WARMUP + "." + ROUNDS,
          SERVER + "." + WARMUP + "." + MAX_DURATION,
          CONTROLLER + "." + HTTP_PORT,
          STORAGE + "." + TYPE,
          STORAGE + "." + ENDPOINT,
          STORAGE + "." + REGION,
          STORAGE + "." + PATH_STYLE_ACCESS,
          STORAGE + "." + ACCESS_KEY_ID,
          STORAGE + "." + SECRET_ACCESS_KEY,
          STORAGE + "." + ROOT,
          STORAGE + "." + MAX_CONNECTIONS,
          STORAGE + "." + REQUEST_TIMEOUT,
          STORAGE + "." + MAX_RETRIES,
          CATALOG + "." + TYPE,
          CATALOG + "." + NAME,
          CATALOG + "." + URI,
          CATALOG + "." + WAREHOUSE,
          CATALOG_PROPERTIES,
          SEGMENT_STORE,
          CACHE + "." + MEMORY + "." + MAX_SIZE,
          CACHE + "." + DISK + "." + MAX_SIZE,
          CACHE + "." + DISK + "." + DIRECTORY,
          CACHE + "." + DECOMPRESSED + "." + MAX_SIZE,
          CACHE + "." + POSTING_LISTS + "." + MAX_SIZE,
          CACHE + "." + DICTIONARIES + "." + MAX_SIZE,
          DATA_DIR,
          QUERY + "." + HEAVY + "." + MAX_RUNNING,
          QUERY + "." + HEAVY + "." + MAX_QUEUED,
          QUERY + "." + CHEAP + "." + MAX_RUNNING,
          QUERY + "." + CHEAP + "." + MAX_QUEUED,
          QUERY + "." + CHEAP + "." + MAX_ROWS,
          QUERY + "." + MAX_GROUPS,
          QUERY + "." + MAX_DISTINCT_VALUES,
          QUERY + "." + MAX_ROWS,
          QUERY + "." + MAX_IN_LIST_ITEMS,
          QUERY + "." + SLOW_THRESHOLD,
          QUERY + "." + SLOW_PROFILE,
          QUERY + "." + READ_REQUEST_COST,
          SECURITY_USERS,
          SECURITY + "." + TLS + "." + CERTIFICATE_FILE,
          SECURITY + "." + TLS + "." + PRIVATE_KEY_FILE,
          SECURITY + "." + TLS + "." + PRIVATE_KEY_PASSWORD,
          ZOOKEEPER + "." + CONNECT,
          ZOOKEEPER + "." + PORT,
          ZOOKEEPER + "." + SESSION_TIMEOUT,
          ZOOKEEPER + "." + CONNECTION_TIMEOUT);

  /**
   * Environment variable name to key, for every key except the free-form catalog properties and
   * users.
   */
  static final Map<String, String> BY_ENVIRONMENT_VARIABLE = byEnvironmentVariable();

  private ClusterKeys() {}

  /** {@code SHELFMARK_} and the key upper-cased with {@code .} and {@code -} as {@code _}. */
  static String environmentVariable(String key) {
    return ConfigLoader.ENVIRONMENT_PREFIX
        + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  private static Map<String, String> byEnvironmentVariable() {
    Map<String, String> result = new HashMap<>();
    for (String key : ALL) {
      if (key.equals(CATALOG_PROPERTIES) || key.equals(SECURITY_USERS)) {
        continue;
      }
      String previous = result.put(environmentVariable(key), key);
      // Two keys with one variable name would make overrides ambiguous: a bug in the list above.
      if (previous != null) {
        throw new IllegalStateException(
            "Keys " + previous + " and " + key + " share variable " + environmentVariable(key));
      }
    }
    return Map.copyOf(result);
  }
}
