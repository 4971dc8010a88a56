package io.shelfmark.controller.state;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.shelfmark.cluster.state.VersionedJson;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.config.ConfigException;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.ConfigWriter;
import io.shelfmark.config.table.TableConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;

/**
 * The controller's state in ZooKeeper, in the layout of {@link ZNodes}: one node per table holding
 * its config, and below it one node per data file holding its segment record. Every write is a
 * version-checked update ({@link VersionedJson}).
 */
public final class ZooKeeperTableStateStore implements TableStateStore {
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private final VersionedJson json;
  private final ZNodes nodes;

  public ZooKeeperTableStateStore(CuratorFramework client, ZNodes nodes) {
    this.json = new VersionedJson(requireNonNull(client, "client is null"));
    this.nodes = requireNonNull(nodes, "nodes is null");
  }

  /**
   * A table's node: its SQL name and its config, as the table config file would hold it (every
   * setting spelled out).
   */
  public record TableRecord(String name, JsonNode config) {
    public TableRecord {
      requireNonNull(name, "name is null");
      requireNonNull(config, "config is null");
    }
  }

  @Override
  public void saveTable(TableConfig config) throws IOException {
    String name = config.identity().qualifiedName();
    TableRecord record =
        new TableRecord(name, JSON.readTree(ConfigWriter.write(config, ConfigFormat.JSON)));
    json.update(nodes.table(name), TableRecord.class, current -> record);
  }

  @Override
  public boolean dropTable(String sqlName) throws IOException {
    return json.delete(nodes.table(sqlName));
  }

  @Override
  public List<StoredTable> tables() throws IOException {
    List<StoredTable> tables = new ArrayList<>();
    // A table node without a value (its config not written, or a segment record written for a table
    // dropped meanwhile) reads as absent and is skipped.
    for (TableRecord record : json.children(nodes.tables(), TableRecord.class).values()) {
      tables.add(new StoredTable(config(record), segments(record.name())));
    }
    return tables;
  }

  @Override
  public Map<String, SegmentRecord> segments(String sqlName) throws IOException {
    return json.children(nodes.segments(sqlName), SegmentRecord.class);
  }

  @Override
  public void saveSegment(String sqlName, SegmentRecord record) throws IOException {
    json.update(nodes.segment(sqlName, record.fileKey()), SegmentRecord.class, current -> record);
  }

  @Override
  public void retainSegments(String sqlName, Set<String> liveFileKeys) throws IOException {
    for (String key : segments(sqlName).keySet()) {
      if (!liveFileKeys.contains(key)) {
        json.delete(nodes.segment(sqlName, key));
      }
    }
  }

  private TableConfig config(TableRecord record) throws IOException {
    String source = "ZooKeeper node " + nodes.table(record.name());
    try {
      return ConfigLoader.parseTable(
          JSON.writeValueAsString(record.config()), ConfigFormat.JSON, source);
    } catch (ConfigException e) {
      throw new IOException(
          "Cannot read the config of table %s from %s: %s (onboard the table again, or run `bin/shelfmark cluster recover`)"
              .formatted(record.name(), source, e.getMessage()),
          e);
    }
  }

  @Override
  public String toString() {
    return "ZooKeeperTableStateStore[" + nodes.root() + "]";
  }
}
