package io.shelfmark.generator;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import io.shelfmark.generator.distribution.MetricsDistribution;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Types;

/**
 * The definition of the benchmark table {@code obs.metrics}: schema (field ids are stable and must
 * never change), partition spec, sort order and the table properties the generator sets.
 *
 * <p>Partitioning: {@code identity(org_id)} and {@code truncate[86400000](logical_timestamp)}.
 * Iceberg's {@code day()} transform accepts only date and timestamp types, and {@code
 * logical_timestamp} is a BIGINT of epoch millis; truncating it to a multiple of 86,400,000 gives
 * exactly the UTC day partitions {@code day()} would (the partition value is the day's first
 * millisecond), and engines can prune it from predicates on the column itself.
 */
public final class MetricsTable {
  public static final int ORG_ID_FIELD_ID = 1;
  public static final int METRIC_FIELD_ID = 2;
  public static final int RESOLUTION_FIELD_ID = 3;
  public static final int LOGICAL_TIMESTAMP_FIELD_ID = 4;
  public static final int SUM_ROLLUP_FIELD_ID = 5;
  public static final int LATEST_ROLLUP_FIELD_ID = 6;
  public static final int DIMENSIONS_FIELD_ID = 7;
  public static final int DIMENSIONS_KEY_FIELD_ID = 8;
  public static final int DIMENSIONS_VALUE_FIELD_ID = 9;

  public static final Schema SCHEMA =
      new Schema(
          required(ORG_ID_FIELD_ID, "org_id", Types.LongType.get()),
          required(METRIC_FIELD_ID, "metric", Types.StringType.get()),
          required(RESOLUTION_FIELD_ID, "resolution", Types.IntegerType.get()),
          required(
              LOGICAL_TIMESTAMP_FIELD_ID,
              "logical_timestamp",
              Types.LongType.get(),
              "epoch milliseconds"),
          optional(SUM_ROLLUP_FIELD_ID, "sum_rollup", Types.DoubleType.get()),
          optional(LATEST_ROLLUP_FIELD_ID, "latest_rollup", Types.DoubleType.get()),
          optional(
              DIMENSIONS_FIELD_ID,
              "dimensions",
              Types.MapType.ofOptional(
                  DIMENSIONS_KEY_FIELD_ID,
                  DIMENSIONS_VALUE_FIELD_ID,
                  Types.StringType.get(),
                  Types.StringType.get())));

  /** The name of the day partition field. */
  public static final String DAY_PARTITION_FIELD = "logical_timestamp_day";

  public static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA)
          .identity("org_id")
          .truncate("logical_timestamp", (int) MetricsDistribution.DAY_MILLIS, DAY_PARTITION_FIELD)
          .build();

  public static final SortOrder SORT_ORDER =
      SortOrder.builderFor(SCHEMA).asc("logical_timestamp").build();

  /** Table property: the row count the table was generated with (set when the data commits). */
  public static final String ROWS_PROPERTY = "shelfmark.generator.rows";

  /** Table property: the seed the table was generated with (set when the data commits). */
  public static final String SEED_PROPERTY = "shelfmark.generator.seed";

  /**
   * Table property: the version of the generator's distributions, set when the table is created.
   * Bumped whenever a change would make the same rows and seed produce different data, so that
   * {@link ExistingTablePolicy#REUSE} never keeps a table from older distributions.
   */
  public static final String VERSION_PROPERTY = "shelfmark.generator.version";

  public static final String VERSION = "1";

  private MetricsTable() {}

  /** The properties a new table gets from these options. */
  public static Map<String, String> properties(GeneratorOptions options) {
    return Map.of(
        TableProperties.FORMAT_VERSION,
        "2",
        TableProperties.DEFAULT_FILE_FORMAT,
        "parquet",
        TableProperties.PARQUET_COMPRESSION,
        "zstd",
        TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES,
        Long.toString(options.rowGroupSize().bytes()),
        TableProperties.PARQUET_PAGE_SIZE_BYTES,
        Long.toString(options.pageSize().bytes()),
        TableProperties.PARQUET_PAGE_ROW_LIMIT,
        Integer.toString(options.pageRowLimit()),
        VERSION_PROPERTY,
        VERSION);
  }
}
