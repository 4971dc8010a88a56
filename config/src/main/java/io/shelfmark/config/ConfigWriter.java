package io.shelfmark.config;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.QueryConfig;
import io.shelfmark.config.cluster.Role;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import io.shelfmark.config.security.SecurityConfig;
import io.shelfmark.config.security.UserConfig;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.DictionaryPagesConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.StarTreeConfig;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.unit.DurationFormat;
import java.util.Map;

/**
 * Writes configs back as YAML or JSON in the shape {@link ConfigLoader} reads, every setting
 * spelled out (defaults included), so {@code parse(write(config))} equals {@code config}. The
 * controller uses it to store table configs; the CLI to write a quickstart cluster config.
 *
 * <p>Cluster configs are written with their secrets (the storage secret key, catalog properties) in
 * clear, as a config file must hold them; keep the output as private as the input. Ports set to
 * {@link io.shelfmark.config.cluster.PortsConfig#ANY_FREE_PORT} are written as 0, which files
 * refuse. Thread safe.
 */
public final class ConfigWriter {
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
  private static final ObjectMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .build();

  private ConfigWriter() {}

  public static String write(TableConfig config, ConfigFormat format) {
    return serialize(toTree(config), format);
  }

  public static String write(ClusterConfig config, ConfigFormat format) {
    return serialize(toTree(config), format);
  }

  private static String serialize(ObjectNode tree, ConfigFormat format) {
    requireNonNull(format, "format is null");
    try {
      return (format == ConfigFormat.YAML ? YAML : JSON).writeValueAsString(tree);
    } catch (JsonProcessingException e) {
      // A tree of strings, numbers and booleans always serializes; this is a Jackson bug.
      throw new IllegalStateException("Cannot write config tree as " + format, e);
    }
  }

  static ObjectNode toTree(TableConfig config) {
    requireNonNull(config, "config is null");
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    ObjectNode table = root.putObject(TableConfigBinder.TABLE);
    table.put(TableConfigBinder.CATALOG, config.identity().catalog());
    table.put(TableConfigBinder.NAMESPACE, config.identity().namespace());
    table.put(TableConfigBinder.NAME, config.identity().name());
    config.timeColumn().ifPresent(column -> root.put(TableConfigBinder.TIME_COLUMN, column));
    ObjectNode columns = root.putObject(TableConfigBinder.COLUMNS);
    for (Map.Entry<String, ColumnConfig> column : config.columns().entrySet()) {
      ArrayNode indexes = columns.putObject(column.getKey()).putArray(TableConfigBinder.INDEXES);
      for (IndexKind kind : column.getValue().indexes()) {
        indexes.add(kind.configName());
      }
    }
    ObjectNode mapKeys = root.putObject(TableConfigBinder.MAP_KEYS);
    for (Map.Entry<String, MapKeySelection> entry : config.mapKeys().entrySet()) {
      ObjectNode selection = mapKeys.putObject(entry.getKey());
      switch (entry.getValue()) {
        case MapKeySelection.Listed listed -> {
          ArrayNode keys = selection.putArray(TableConfigBinder.KEYS);
          listed.keys().forEach(keys::add);
        }
        case MapKeySelection.Auto auto -> {
          selection.put(TableConfigBinder.AUTO, true);
          selection.put(TableConfigBinder.MIN_SHARE, auto.minShare());
        }
      }
    }
    root.put(TableConfigBinder.REPLICATION, config.replication());
    root.put(TableConfigBinder.REFRESH_INTERVAL, DurationFormat.format(config.refreshInterval()));
    // Written only when set to another value than the default, like a key left out of a file.
    DictionaryPagesConfig dictionaryPages = config.dictionaryPages();
    if (!dictionaryPages.equals(DictionaryPagesConfig.DEFAULT)) {
      ObjectNode section = root.putObject(TableConfigBinder.DICTIONARY_PAGES);
      section.put(TableConfigBinder.MAX_SIZE, dictionaryPages.maxSize().toString());
      section.put(TableConfigBinder.MAX_SHARE, dictionaryPages.maxShare());
      if (dictionaryPages.columns().isPresent()) {
        ArrayNode kept = section.putArray(TableConfigBinder.COLUMNS);
        dictionaryPages.columns().get().forEach(kept::add);
      }
    }
    if (!config.starTrees().isEmpty()) {
      ArrayNode trees = root.putArray(TableConfigBinder.STAR_TREES);
      for (StarTreeConfig starTree : config.starTrees()) {
        ObjectNode tree = trees.addObject();
        ArrayNode dimensions = tree.putArray(TableConfigBinder.DIMENSIONS);
        starTree.dimensions().forEach(dimension -> dimensions.add(dimension.text()));
        ArrayNode functions = tree.putArray(TableConfigBinder.FUNCTIONS);
        starTree.functions().forEach(function -> functions.add(function.text()));
        tree.put(TableConfigBinder.MAX_LEAF_RECORDS, starTree.maxLeafRecords());
        if (starTree.minRowsPerRecord() != StarTreeConfig.DEFAULT_MIN_ROWS_PER_RECORD) {
          tree.put(TableConfigBinder.MIN_ROWS_PER_RECORD, starTree.minRowsPerRecord());
        }
        if (!starTree.skipStarNodeDimensions().isEmpty()) {
          ArrayNode skip = tree.putArray(TableConfigBinder.SKIP_STAR_NODE_DIMENSIONS);
          starTree.skipStarNodeDimensions().forEach(skip::add);
        }
      }
    }
    return root;
  }

  static ObjectNode toTree(ClusterConfig config) {
    requireNonNull(config, "config is null");
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put(ClusterKeys.CLUSTER_NAME, config.clusterName());
    ArrayNode roles = root.putArray(ClusterKeys.ROLES);
    for (Role role : config.roles()) {
      roles.add(role.configName());
    }
    root.put(ClusterKeys.HOST, config.host());
    ObjectNode broker =
        root.putObject(ClusterKeys.BROKER)
            .put(ClusterKeys.HTTP_PORT, config.ports().brokerHttpPort())
            .put(ClusterKeys.FLIGHT_PORT, config.ports().brokerFlightPort());
    if (config.allowUnauthenticatedRemoteAccess()) {
      broker.put(ClusterKeys.ALLOW_UNAUTHENTICATED_REMOTE_ACCESS, true);
    }
    broker
        .putObject(ClusterKeys.HTTP)
        .put(
            ClusterKeys.REQUEST_READ_TIMEOUT,
            DurationFormat.format(config.http().requestReadTimeout()))
        .put(ClusterKeys.IDLE_TIMEOUT, DurationFormat.format(config.http().idleTimeout()))
        .put(ClusterKeys.MAX_CONNECTIONS, config.http().maxConnections())
        .put(ClusterKeys.MAX_CONNECTIONS_PER_CLIENT, config.http().maxConnectionsPerClient());
    broker
        .putObject(ClusterKeys.SQL)
        .put(ClusterKeys.MAX_LENGTH, config.sqlLimits().maxLength())
        .put(ClusterKeys.MAX_EXPRESSION_DEPTH, config.sqlLimits().maxExpressionDepth())
        .put(ClusterKeys.MAX_IN_LIST_SIZE, config.sqlLimits().maxInListSize())
        .put(ClusterKeys.MAX_LOGICAL_TERMS, config.sqlLimits().maxLogicalTerms());
    ObjectNode server =
        root.putObject(ClusterKeys.SERVER)
            .put(ClusterKeys.RPC_PORT, config.ports().serverRpcPort())
            .put(ClusterKeys.SEGMENT_MODE, config.segmentMode().configName());
    server
        .putObject(ClusterKeys.WARMUP)
        .put(ClusterKeys.ROUNDS, config.warmup().rounds())
        .put(ClusterKeys.MAX_DURATION, DurationFormat.format(config.warmup().maxDuration()));
    root.putObject(ClusterKeys.CONTROLLER)
        .put(ClusterKeys.HTTP_PORT, config.ports().controllerHttpPort());
    writeStorage(root.putObject(ClusterKeys.STORAGE), config.storage());
    config
        .catalog()
        .ifPresent(catalog -> writeCatalog(root.putObject(ClusterKeys.CATALOG), catalog));
    root.put(ClusterKeys.SEGMENT_STORE, config.segmentStore());
    writeCache(root.putObject(ClusterKeys.CACHE), config.cache());
    root.put(ClusterKeys.DATA_DIR, config.dataDir().toString());
    writeQuery(root.putObject(ClusterKeys.QUERY), config.query());
    writeSecurity(root, config.security());
    ObjectNode zookeeper =
        root.putObject(ClusterKeys.ZOOKEEPER)
            .put(
                ClusterKeys.CONNECT, config.zookeeper().connect().orElse(ZooKeeperConfig.EMBEDDED));
    if (config.zookeeper().isEmbedded()) {
      zookeeper.put(ClusterKeys.PORT, config.zookeeper().port());
    }
    zookeeper
        .put(
            ClusterKeys.SESSION_TIMEOUT, DurationFormat.format(config.zookeeper().sessionTimeout()))
        .put(
            ClusterKeys.CONNECTION_TIMEOUT,
            DurationFormat.format(config.zookeeper().connectionTimeout()));
    return root;
  }

  private static void writeSecurity(ObjectNode root, SecurityConfig config) {
    if (config.users().isEmpty() && config.tls().isEmpty()) {
      return;
    }
    ObjectNode security = root.putObject(ClusterKeys.SECURITY);
    if (!config.users().isEmpty()) {
      ObjectNode users = security.putObject(ClusterKeys.USERS);
      for (UserConfig user : config.users()) {
        ObjectNode entry = users.putObject(user.name());
        user.passwordHash().ifPresent(hash -> entry.put(ClusterKeys.PASSWORD_HASH, hash.encoded()));
        user.tokenHash().ifPresent(hash -> entry.put(ClusterKeys.TOKEN_HASH, hash.encoded()));
        ArrayNode roles = entry.putArray(ClusterKeys.ROLES);
        user.roles().forEach(role -> roles.add(role.configName()));
        ArrayNode tables = entry.putArray(ClusterKeys.TABLES);
        user.tables().forEach(table -> tables.add(table.text()));
      }
    }
    config
        .tls()
        .ifPresent(
            tls -> {
              ObjectNode node = security.putObject(ClusterKeys.TLS);
              node.put(ClusterKeys.CERTIFICATE_FILE, tls.certificateFile().toString());
              node.put(ClusterKeys.PRIVATE_KEY_FILE, tls.privateKeyFile().toString());
              tls.privateKeyPassword()
                  .ifPresent(password -> node.put(ClusterKeys.PRIVATE_KEY_PASSWORD, password));
            });
  }

  private static void writeStorage(ObjectNode storage, StorageConfig config) {
    storage.put(ClusterKeys.TYPE, config.type().configName());
    config.endpoint().ifPresent(endpoint -> storage.put(ClusterKeys.ENDPOINT, endpoint.toString()));
    storage.put(ClusterKeys.REGION, config.region());
    storage.put(ClusterKeys.PATH_STYLE_ACCESS, config.pathStyleAccess());
    config
        .credentials()
        .ifPresent(
            credentials -> {
              storage.put(ClusterKeys.ACCESS_KEY_ID, credentials.accessKeyId());
              storage.put(ClusterKeys.SECRET_ACCESS_KEY, credentials.secretAccessKey());
            });
    config.root().ifPresent(root -> storage.put(ClusterKeys.ROOT, root.toString()));
    storage.put(ClusterKeys.MAX_CONNECTIONS, config.maxConnections());
    storage.put(ClusterKeys.REQUEST_TIMEOUT, DurationFormat.format(config.requestTimeout()));
    storage.put(ClusterKeys.MAX_RETRIES, config.maxRetries());
  }

  private static void writeCatalog(ObjectNode catalog, CatalogConfig config) {
    catalog.put(ClusterKeys.TYPE, config.type().configName());
    catalog.put(ClusterKeys.NAME, config.name());
    config.uri().ifPresent(uri -> catalog.put(ClusterKeys.URI, uri));
    config.warehouse().ifPresent(warehouse -> catalog.put(ClusterKeys.WAREHOUSE, warehouse));
    if (!config.properties().isEmpty()) {
      ObjectNode properties = catalog.putObject(ClusterKeys.PROPERTIES);
      config.properties().forEach(properties::put);
    }
  }

  private static void writeCache(ObjectNode cache, CacheConfig config) {
    cache
        .putObject(ClusterKeys.MEMORY)
        .put(ClusterKeys.MAX_SIZE, config.memoryMaxSize().toString());
    ObjectNode disk = cache.putObject(ClusterKeys.DISK);
    disk.put(ClusterKeys.MAX_SIZE, config.diskMaxSize().toString());
    disk.put(ClusterKeys.DIRECTORY, config.diskDirectory().toString());
    cache
        .putObject(ClusterKeys.DECOMPRESSED)
        .put(ClusterKeys.MAX_SIZE, config.decompressedMaxSize().toString());
    cache
        .putObject(ClusterKeys.POSTING_LISTS)
        .put(ClusterKeys.MAX_SIZE, config.postingListsMaxSize().toString());
    cache
        .putObject(ClusterKeys.DICTIONARIES)
        .put(ClusterKeys.MAX_SIZE, config.dictionariesMaxSize().toString());
  }

  private static void writeQuery(ObjectNode node, QueryConfig query) {
    node.putObject(ClusterKeys.HEAVY)
        .put(ClusterKeys.MAX_RUNNING, query.heavyMaxRunning())
        .put(ClusterKeys.MAX_QUEUED, query.heavyMaxQueued());
    node.putObject(ClusterKeys.CHEAP)
        .put(ClusterKeys.MAX_RUNNING, query.cheapMaxRunning())
        .put(ClusterKeys.MAX_QUEUED, query.cheapMaxQueued())
        .put(ClusterKeys.MAX_ROWS, query.cheapMaxRows());
    node.put(ClusterKeys.MAX_GROUPS, query.maxGroups())
        .put(ClusterKeys.MAX_DISTINCT_VALUES, query.maxDistinctValues())
        .put(ClusterKeys.MAX_ROWS, query.maxRows())
        .put(ClusterKeys.MAX_IN_LIST_ITEMS, query.maxInListItems())
        .put(ClusterKeys.SLOW_THRESHOLD, DurationFormat.format(query.slowThreshold()))
        .put(ClusterKeys.SLOW_PROFILE, query.slowProfile())
        .put(ClusterKeys.READ_REQUEST_COST, query.readRequestCost().toString());
  }
}
