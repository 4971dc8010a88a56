package io.shelfmark.config.table;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How Shelfmark indexes one Iceberg table: which columns get which indexes, which map keys become
 * virtual columns, how many replicas serve each segment and how often the table's snapshots are
 * checked. Load it with {@code io.shelfmark.config.ConfigLoader#loadTable}, or build it with {@link
 * #builder(TableIdentity)}.
 *
 * <p>Immutable and thread safe. Column names are the table's own and are matched case-sensitively;
 * this module does not know the table's schema, so checking that the columns exist is the
 * controller's job when it onboards the table.
 *
 * @param identity the catalog, namespace and name ({@code table.*})
 * @param timeColumn the column queries filter time on ({@code time-column})
 * @param columns per column, the indexes to build ({@code columns.<column>.indexes}), in file order
 * @param mapKeys per MAP column, the keys to extract ({@code map-keys.<column>}), in file order
 * @param replication how many servers hold each segment, at least 1 ({@code replication})
 * @param refreshInterval how often the controller checks the table for new snapshots ({@code
 *     refresh-interval})
 * @param dictionaryPages the Parquet dictionary pages kept with each data file's segment ({@code
 *     dictionary-pages.*})
 * @param starTrees the star-trees pre-aggregated per data file ({@code star-trees}), in config
 *     order; empty for none
 */
public record TableConfig(
    TableIdentity identity,
    Optional<String> timeColumn,
    Map<String, ColumnConfig> columns,
    Map<String, MapKeySelection> mapKeys,
    int replication,
    Duration refreshInterval,
    DictionaryPagesConfig dictionaryPages,
    List<StarTreeConfig> starTrees) {
  public static final int DEFAULT_REPLICATION = 2;
  public static final int MAX_REPLICATION = 100;
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(60);
  public static final Duration MIN_REFRESH_INTERVAL = Duration.ofSeconds(1);

  public TableConfig {
    requireNonNull(identity, "identity is null");
    requireNonNull(timeColumn, "timeColumn is null");
    columns = ImmutableMap.copyOf(requireNonNull(columns, "columns is null"));
    mapKeys = ImmutableMap.copyOf(requireNonNull(mapKeys, "mapKeys is null"));
    requireNonNull(refreshInterval, "refreshInterval is null");
    requireNonNull(dictionaryPages, "dictionaryPages is null");
    starTrees = ImmutableList.copyOf(requireNonNull(starTrees, "starTrees is null"));
    timeColumn.ifPresent(
        column -> checkArgument(!column.isBlank(), "Cannot use time-column: blank"));
    checkArgument(
        replication >= 1 && replication <= MAX_REPLICATION,
        "Cannot use replication: %s (expected 1 to %s)",
        replication,
        MAX_REPLICATION);
    checkArgument(
        refreshInterval.compareTo(MIN_REFRESH_INTERVAL) >= 0,
        "Cannot use refresh-interval: %s (expected at least 1s)",
        refreshInterval);
  }

  /** A table config without star-trees. */
  public TableConfig(
      TableIdentity identity,
      Optional<String> timeColumn,
      Map<String, ColumnConfig> columns,
      Map<String, MapKeySelection> mapKeys,
      int replication,
      Duration refreshInterval,
      DictionaryPagesConfig dictionaryPages) {
    this(
        identity,
        timeColumn,
        columns,
        mapKeys,
        replication,
        refreshInterval,
        dictionaryPages,
        List.of());
  }

  /** A table config keeping the default budget of dictionary pages. */
  public TableConfig(
      TableIdentity identity,
      Optional<String> timeColumn,
      Map<String, ColumnConfig> columns,
      Map<String, MapKeySelection> mapKeys,
      int replication,
      Duration refreshInterval) {
    this(
        identity,
        timeColumn,
        columns,
        mapKeys,
        replication,
        refreshInterval,
        DictionaryPagesConfig.DEFAULT,
        List.of());
  }

  /** The indexes configured for {@code column}, if any. */
  public Optional<ColumnConfig> column(String column) {
    return Optional.ofNullable(columns.get(column));
  }

  public static Builder builder(TableIdentity identity) {
    return new Builder(identity);
  }

  /** Builds a {@link TableConfig}; each setting may be set once, unset ones take defaults. */
  public static final class Builder {
    private final TableIdentity identity;
    private String timeColumn;
    private final ImmutableMap.Builder<String, ColumnConfig> columns = ImmutableMap.builder();
    private final ImmutableMap.Builder<String, MapKeySelection> mapKeys = ImmutableMap.builder();
    private Integer replication;
    private Duration refreshInterval;
    private DictionaryPagesConfig dictionaryPages;
    private final ImmutableList.Builder<StarTreeConfig> starTrees = ImmutableList.builder();

    private Builder(TableIdentity identity) {
      this.identity = requireNonNull(identity, "identity is null");
    }

    public Builder timeColumn(String timeColumn) {
      checkUnset("timeColumn", this.timeColumn);
      this.timeColumn = requireNonNull(timeColumn, "timeColumn is null");
      return this;
    }

    /** Adds a column's indexes; the same column twice fails at {@link #build()}. */
    public Builder column(String column, ColumnConfig config) {
      columns.put(
          requireNonNull(column, "column is null"), requireNonNull(config, "config is null"));
      return this;
    }

    /** Adds a MAP column's key selection; the same column twice fails at {@link #build()}. */
    public Builder mapKeys(String column, MapKeySelection selection) {
      mapKeys.put(
          requireNonNull(column, "column is null"), requireNonNull(selection, "selection is null"));
      return this;
    }

    public Builder replication(int replication) {
      checkUnset("replication", this.replication);
      this.replication = replication;
      return this;
    }

    public Builder refreshInterval(Duration refreshInterval) {
      checkUnset("refreshInterval", this.refreshInterval);
      this.refreshInterval = requireNonNull(refreshInterval, "refreshInterval is null");
      return this;
    }

    /** {@code dictionary-pages.*}: Parquet dictionary pages kept per data file's segment. */
    public Builder dictionaryPages(DictionaryPagesConfig dictionaryPages) {
      checkUnset("dictionaryPages", this.dictionaryPages);
      this.dictionaryPages = requireNonNull(dictionaryPages, "dictionaryPages is null");
      return this;
    }

    /** Adds a star-tree ({@code star-trees}), after those added before. */
    public Builder starTree(StarTreeConfig starTree) {
      starTrees.add(requireNonNull(starTree, "starTree is null"));
      return this;
    }

    public TableConfig build() {
      return new TableConfig(
          identity,
          Optional.ofNullable(timeColumn),
          columns.buildOrThrow(),
          mapKeys.buildOrThrow(),
          replication == null ? DEFAULT_REPLICATION : replication,
          refreshInterval == null ? DEFAULT_REFRESH_INTERVAL : refreshInterval,
          dictionaryPages == null ? DictionaryPagesConfig.DEFAULT : dictionaryPages,
          starTrees.build());
    }

    private static void checkUnset(String name, Object current) {
      checkState(current == null, "Cannot set %s twice: already set to %s", name, current);
    }
  }
}
