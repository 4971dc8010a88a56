package io.shelfmark.segment.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexResult;
import java.io.IOException;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/** Checks one index reader against the brute-force scan, predicate by predicate. */
public final class IndexChecks {
  private IndexChecks() {}

  /**
   * Evaluates random comparisons on {@code column} with its {@code typeId} reader, within all docs
   * and within a sparse context, and compares with the scan: equal when exact, enclosing otherwise.
   */
  public static void checkRandomComparisons(
      Segment segment, TestingTable table, String column, String typeId, long seed, int count)
      throws IOException {
    IndexReader reader =
        segment
            .index(column, typeId)
            .orElseThrow(() -> new AssertionError("no " + typeId + " index on " + column));
    ScanOracle oracle = new ScanOracle(table);
    RandomPredicates random = new RandomPredicates(table, List.of(column), seed);
    RoaringBitmap everyThirdDoc = new RoaringBitmap();
    for (int doc = 0; doc < table.docCount(); doc += 3) {
      everyThirdDoc.add(doc);
    }
    int checked = 0;
    while (checked < count) {
      Predicate predicate = random.next(0);
      if (!(predicate instanceof ColumnPredicate comparison)
          || reader.coverage(comparison) == Coverage.NONE) {
        continue;
      }
      for (RoaringBitmap context : List.of(segment.allDocs(), everyThirdDoc)) {
        check(
            reader,
            oracle,
            comparison,
            context,
            "seed %d, %s, %d-doc context".formatted(seed, comparison, context.getCardinality()));
      }
      checked++;
    }
  }

  public static void check(
      IndexReader reader,
      ScanOracle oracle,
      ColumnPredicate predicate,
      RoaringBitmap context,
      String description) {
    IndexResult result = reader.evaluate(predicate, context);
    RoaringBitmap expected = oracle.matches(predicate, context);
    assertThat(RoaringBitmap.intersects(result.definite(), result.candidates()))
        .as(description)
        .isFalse();
    if (reader.coverage(predicate) == Coverage.EXACT) {
      assertThat(result.isExact()).as("exact: %s", description).isTrue();
      assertThat(result.definite()).as(description).isEqualTo(expected);
    } else {
      assertThat(RoaringBitmap.andNot(result.definite(), expected).isEmpty())
          .as("definite match: %s", description)
          .isTrue();
      RoaringBitmap possible = RoaringBitmap.or(result.definite(), result.candidates());
      assertThat(RoaringBitmap.andNot(expected, possible).isEmpty())
          .as("no match missed: %s", description)
          .isTrue();
      assertThat(RoaringBitmap.andNot(possible, context).isEmpty())
          .as("inside context: %s", description)
          .isTrue();
    }
  }
}
