package io.shelfmark.broker.prune;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.metadata.SegmentStatistics;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.plan.QueryPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which row groups of one data file a query must read, from per-row-group statistics: the
 * Parquet footer's (for a file without a segment) or a segment's. A row group is skipped only when
 * no row of it can pass the filter ({@link StatisticsEvaluator}).
 *
 * <pre>{@code
 * RowGroupPruner pruner = RowGroupPruner.of(plan, table.schema());
 * List<PruneResult> rowGroups = pruner.prune(footer.metadata());   // one per row group
 * }</pre>
 *
 * <p>Footer columns are matched to the table's current columns by Iceberg field id when the file
 * records field ids (Iceberg writers do), else by name; only top-level primitive columns are used.
 * A current column the file does not have (added after it was written, without a default) is NULL
 * in every row of it, and pruned as such. Built once per query; thread safe. Evaluation failures
 * keep the row group and are counted in {@link #errors()}.
 */
public final class RowGroupPruner {
  private static final Logger log = LoggerFactory.getLogger(RowGroupPruner.class);

  private final Optional<Expression> filter;
  private final Schema schema;
  private final PruningErrors errors = new PruningErrors();

  private RowGroupPruner(Optional<Expression> filter, Schema schema) {
    this.filter = requireNonNull(filter, "filter is null");
    this.schema = requireNonNull(schema, "schema is null");
  }

  /** A pruner for the plan's filter, with column names of {@code schema} (the current schema). */
  public static RowGroupPruner of(QueryPlan plan, Schema schema) {
    return new RowGroupPruner(requireNonNull(plan, "plan is null").filter(), schema);
  }

  /** A pruner for a normalised filter (empty = every row passes). */
  public static RowGroupPruner of(Optional<Expression> filter, Schema schema) {
    return new RowGroupPruner(filter, schema);
  }

  /** The result for one row group (or any unit) with these statistics. */
  public PruneResult prune(PruningStatistics rowGroup) {
    requireNonNull(rowGroup, "rowGroup is null");
    if (filter.isEmpty()) {
      return rowGroup.rowCount() == 0 ? PruneResult.CANNOT_MATCH : PruneResult.ALL_MATCH;
    }
    try {
      return StatisticsEvaluator.evaluate(filter.get(), rowGroup);
    } catch (RuntimeException e) {
      errors.record();
      log.debug("Cannot prune row group {}: {}", rowGroup, e.toString());
      return PruneResult.MIGHT_MATCH;
    }
  }

  /** One result per row group of a Parquet file, from its footer's column chunk statistics. */
  public List<PruneResult> prune(FileMetaData footer) {
    requireNonNull(footer, "footer is null");
    Map<Integer, Integer> leaves = topLevelLeaves(footer.getSchema());
    List<PruneResult> results = new ArrayList<>(footer.getRow_groupsSize());
    for (RowGroup rowGroup : footer.getRow_groups()) {
      results.add(prune(new FooterRowGroup(footer.getSchema(), leaves, rowGroup)));
    }
    return results;
  }

  /**
   * One result per row group of one data file of a segment ({@code SegmentStatistics.files()}),
   * with the row groups' row counts ({@code DataFileEntry.rowGroupRowCounts()}). The segment's
   * column names must be those of the current schema.
   */
  public List<PruneResult> prune(
      SegmentStatistics.FileStatistics file, List<Long> rowGroupRowCounts) {
    requireNonNull(file, "file is null");
    requireNonNull(rowGroupRowCounts, "rowGroupRowCounts is null");
    if (file.rowGroups().size() != rowGroupRowCounts.size()) {
      throw new IllegalArgumentException(
          "Cannot prune row groups: the segment has statistics of %d row groups but the file has %d"
              .formatted(file.rowGroups().size(), rowGroupRowCounts.size()));
    }
    List<PruneResult> results = new ArrayList<>(rowGroupRowCounts.size());
    for (int i = 0; i < rowGroupRowCounts.size(); i++) {
      results.add(prune(PruningStatistics.of(rowGroupRowCounts.get(i), file.rowGroups().get(i))));
    }
    return results;
  }

  /** Evaluations that failed (row groups then kept). */
  public PruningErrors errors() {
    return errors;
  }

  /**
   * The footer's top-level primitive columns, leaf ordinal by Iceberg field id; empty when some
   * top-level field has no field id (then columns are matched by name).
   */
  private static Map<Integer, Integer> topLevelLeaves(List<SchemaElement> elements) {
    Map<Integer, Integer> byFieldId = new HashMap<>();
    int leaf = 0;
    // Depth-first: each group's children follow it. remaining[d] counts children left at depth d.
    int[] remaining = new int[elements.size() + 1];
    int depth = 0;
    remaining[0] = elements.getFirst().getNum_children();
    for (int i = 1; i < elements.size(); i++) {
      while (depth > 0 && remaining[depth] == 0) {
        depth--;
      }
      remaining[depth]--;
      SchemaElement element = elements.get(i);
      boolean topLevel = depth == 0;
      if (topLevel && !element.isSetField_id()) {
        return Map.of();
      }
      if (element.isSetType()) {
        if (topLevel && element.isSetField_id()) {
          byFieldId.put(element.getField_id(), leaf);
        }
        leaf++;
      } else {
        depth++;
        remaining[depth] = element.getNum_children();
      }
    }
    return byFieldId;
  }

  /** One row group of a footer, columns resolved against the current schema. */
  private final class FooterRowGroup implements PruningStatistics {
    private final List<SchemaElement> elements;
    private final Map<Integer, Integer> byFieldId;
    private final RowGroup rowGroup;

    FooterRowGroup(
        List<SchemaElement> elements, Map<Integer, Integer> byFieldId, RowGroup rowGroup) {
      this.elements = elements;
      this.byFieldId = byFieldId;
      this.rowGroup = rowGroup;
    }

    @Override
    public long rowCount() {
      return rowGroup.getNum_rows();
    }

    @Override
    public Optional<ColumnStatistics> column(Expression reference) {
      if (!(reference instanceof ColumnRef column)) {
        return Optional.empty();
      }
      Types.NestedField field = schema.findField(column.name());
      if (field == null || !field.type().isPrimitiveType()) {
        return Optional.empty();
      }
      Optional<Integer> leaf =
          byFieldId.isEmpty()
              ? leafByName(column.name())
              : Optional.ofNullable(byFieldId.get(field.fieldId()));
      if (leaf.isEmpty()) {
        // Absence is only certain by field id: matched by name, a renamed column looks absent.
        if (byFieldId.isEmpty() || field.initialDefault() != null) {
          return Optional.empty();
        }
        // Proof: the file has no field with this id, so readers give NULL for it in every row.
        long rows = rowCount();
        return Optional.of(
            new ColumnStatistics(rows, OptionalLong.of(rows), Optional.empty(), Optional.empty()));
      }
      ColumnChunk chunk = rowGroup.getColumns().get(leaf.get());
      if (!chunk.isSetMeta_data()) {
        return Optional.empty();
      }
      return Optional.of(
          ParquetStatistics.of(
              leafElement(leaf.get()), chunk.getMeta_data(), rowCount(), field.type()));
    }

    private Optional<Integer> leafByName(String name) {
      List<String> path = List.of(name);
      List<ColumnChunk> chunks = rowGroup.getColumns();
      for (int i = 0; i < chunks.size(); i++) {
        if (chunks.get(i).isSetMeta_data()
            && path.equals(chunks.get(i).getMeta_data().getPath_in_schema())) {
          return Optional.of(i);
        }
      }
      return Optional.empty();
    }

    private SchemaElement leafElement(int leaf) {
      int seen = 0;
      for (int i = 1; i < elements.size(); i++) {
        if (elements.get(i).isSetType()) {
          if (seen == leaf) {
            return elements.get(i);
          }
          seen++;
        }
      }
      throw new IllegalStateException("Cannot find leaf column " + leaf + " in the footer schema");
    }

    @Override
    public String toString() {
      return "row group of %d rows".formatted(rowCount());
    }
  }
}
