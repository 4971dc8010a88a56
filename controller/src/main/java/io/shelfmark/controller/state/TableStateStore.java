package io.shelfmark.controller.state;

import io.shelfmark.config.table.TableConfig;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The controller's durable state: the config of every onboarded table and the segment record of
 * each of its data files. The Iceberg catalog stays the source of truth for the data; this holds
 * only what Shelfmark decided and built, so that a restarted or failed-over controller serves every
 * table again at once and rebuilds nothing that exists. Everything here can be rebuilt from the
 * segment store and the catalog ({@code bin/shelfmark cluster recover}).
 *
 * <p>Implementations are thread safe; every write is atomic per table or per record, and two
 * controllers writing the same record never lose each other's change.
 */
public interface TableStateStore {
  /** A stored table: its config and its segment records, by {@link SegmentRecord#fileKey()}. */
  record StoredTable(TableConfig config, Map<String, SegmentRecord> segments) {
    public StoredTable {
      segments = Map.copyOf(segments);
    }
  }

  /** Records {@code config} as the table's config, replacing an older one. */
  void saveTable(TableConfig config) throws IOException;

  /** Forgets a table and its segment records; false when it was not stored. */
  boolean dropTable(String sqlName) throws IOException;

  /** Every stored table, sorted by name. */
  List<StoredTable> tables() throws IOException;

  /** One table's segment records, by file key; empty when it has none. */
  Map<String, SegmentRecord> segments(String sqlName) throws IOException;

  /** Records the segment of one data file of a table, replacing an older record of that file. */
  void saveSegment(String sqlName, SegmentRecord record) throws IOException;

  /** Forgets the segment records of files no longer live; the rest stay. */
  void retainSegments(String sqlName, java.util.Set<String> liveFileKeys) throws IOException;

  /** A store that keeps nothing: tables live only as long as the process (tests of one JVM). */
  static TableStateStore none() {
    return new TableStateStore() {
      @Override
      public void saveTable(TableConfig config) {}

      @Override
      public boolean dropTable(String sqlName) {
        return false;
      }

      @Override
      public List<StoredTable> tables() {
        return List.of();
      }

      @Override
      public Map<String, SegmentRecord> segments(String sqlName) {
        return Map.of();
      }

      @Override
      public void saveSegment(String sqlName, SegmentRecord record) {}

      @Override
      public void retainSegments(String sqlName, java.util.Set<String> liveFileKeys) {}

      @Override
      public String toString() {
        return "TableStateStore.none()";
      }
    };
  }
}
