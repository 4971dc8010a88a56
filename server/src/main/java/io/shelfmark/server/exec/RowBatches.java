package io.shelfmark.server.exec;

import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.exchange.vector.PredicateEvaluator;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.exchange.vector.VectorEvaluator;
import io.shelfmark.exchange.vector.VectorInputs;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.parquet.schema.ColumnRole;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.server.column.ColumnSources;
import io.shelfmark.server.column.MapVectors;
import io.shelfmark.server.column.ParquetVectors;
import io.shelfmark.server.column.SegmentVectors;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.MapKeyRef;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.type.MapType;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Turns the docs in play into batches of vectors (from Parquet row groups, or from the segment's
 * forward indexes in chunks), checks the filter terms the indexes left, and hands the matching rows
 * to the consumer. One per file execution; not thread safe.
 */
final class RowBatches {
  private final FileExecution.Filter filter;
  private final Map<Expression, ColumnSources.Source> leaves;
  private final ExecutionContext context;
  private final BatchConsumer consumer;
  private final String file;
  private final Optional<Expression> checkDefinite;
  private final Optional<Expression> checkCandidates;
  private long docsScanned;
  private int[] sel = new int[1024];

  RowBatches(
      QueryPlan plan,
      FileExecution.Filter filter,
      Map<Expression, ColumnSources.Source> leaves,
      ExecutionContext context,
      BatchConsumer consumer,
      String file) {
    this.filter = filter;
    this.leaves = leaves;
    this.context = context;
    this.consumer = consumer;
    this.file = file;
    this.checkDefinite = FileExecution.and(filter.checkDefinite());
    this.checkCandidates =
        filter.candidates().isEmpty()
            ? Optional.empty()
            : FileExecution.and(filter.checkCandidates());
  }

  long docsScanned() {
    return docsScanned;
  }

  boolean isSatisfied() {
    return consumer.isSatisfied();
  }

  /** The consumer's partial result. */
  PartialResult result(ExecutionStatistics statistics) {
    return consumer.result(statistics);
  }

  /** Every doc of {@code rows} with values from the segment only; returns the docs matched. */
  long fromSegment(RoaringBitmap rows, int batchSize) {
    int[] docs = new int[batchSize];
    PeekableIntIterator iterator = rows.getIntIterator();
    while (iterator.hasNext() && !consumer.isSatisfied()) {
      context.checkContinue();
      int count = 0;
      while (iterator.hasNext() && count < batchSize) {
        docs[count++] = iterator.next();
      }
      process(new Inputs(docs, count, null), docs, count);
    }
    return docsScanned;
  }

  /** One row group's selected rows, decoded from Parquet. */
  void fromParquet(RowGroupBatch batch) {
    int[] rows = batch.rows().toArray();
    int count = rows.length;
    int[] docs = new int[count];
    for (int i = 0; i < count; i++) {
      docs[i] = (int) (batch.firstRow() + rows[i]);
    }
    process(new Inputs(docs, count, batch), docs, count);
  }

  private void process(Inputs inputs, int[] docs, int size) {
    if (sel.length < size) {
      sel = new int[Math.max(size, sel.length * 2)];
    }
    int n = 0;
    if (filter.exact()) {
      for (int i = 0; i < size; i++) {
        sel[n++] = i;
      }
    } else {
      Vector definite =
          checkDefinite.map(e -> VectorEvaluator.evaluate(e, inputs, size)).orElse(null);
      Vector candidate =
          checkCandidates.map(e -> VectorEvaluator.evaluate(e, inputs, size)).orElse(null);
      boolean allDefinite = filter.candidates().isEmpty();
      for (int i = 0; i < size; i++) {
        boolean pass;
        if (allDefinite || filter.definite().contains(docs[i])) {
          pass = definite == null || PredicateEvaluator.isTrue(definite, i);
        } else {
          pass = candidate != null && PredicateEvaluator.isTrue(candidate, i);
        }
        if (pass) {
          sel[n++] = i;
        }
      }
    }
    docsScanned += n;
    consumer.add(inputs, size, sel, n);
  }

  /** The vectors of one batch's leaves, built on first use. */
  private final class Inputs implements VectorInputs {
    private final int[] docs;
    private final int count;
    private final RowGroupBatch batch;
    private final Map<Expression, Vector> vectors = new HashMap<>();

    Inputs(int[] docs, int count, RowGroupBatch batch) {
      this.docs = docs;
      this.count = count;
      this.batch = batch;
    }

    @Override
    public Vector input(Expression leaf) {
      Vector vector = vectors.get(leaf);
      if (vector == null) {
        vector = read(leaf);
        vectors.put(leaf, vector);
      }
      return vector;
    }

    private static ColumnSchema mapKeys(ColumnSources.Parquet parquet) {
      return parquet.leaves().stream()
          .filter(l -> l.role() == ColumnRole.MAP_KEY)
          .findFirst()
          .orElseThrow();
    }

    private Vector read(Expression leaf) {
      ColumnSources.Source source = leaves.get(leaf);
      if (source == null) {
        throw new IllegalArgumentException("Cannot find " + leaf + " among the columns read");
      }
      return switch (source) {
        case ColumnSources.Missing _ -> Vector.allNull(leaf.type(), count);
        case ColumnSources.Forward forward ->
            SegmentVectors.read(forward, leaf.type(), docs, count);
        case ColumnSources.Sorted sorted -> SegmentVectors.read(sorted, leaf.type(), docs, count);
        case ColumnSources.Inverted inverted ->
            SegmentVectors.read(inverted, leaf.type(), docs, count);
        case ColumnSources.Parquet parquet -> {
          if (batch == null) {
            throw new IllegalStateException("Cannot read " + leaf + " without a Parquet batch");
          }
          if (leaf.type() instanceof MapType map) {
            yield MapVectors.whole(
                batch.column(mapKeys(parquet).dottedPath()),
                batch.column(parquet.valueLeaf().dottedPath()),
                map,
                file);
          }
          if (leaf instanceof MapKeyRef key) {
            ColumnSchema keys = mapKeys(parquet);
            yield MapVectors.extract(
                batch.column(keys.dottedPath()),
                batch.column(parquet.valueLeaf().dottedPath()),
                key.key(),
                leaf.type(),
                file);
          }
          yield ParquetVectors.convert(
              batch.column(parquet.valueLeaf().dottedPath()), leaf.type(), file);
        }
      };
    }
  }
}
