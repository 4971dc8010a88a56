package io.shelfmark.segment.testing;

import io.shelfmark.segment.predicate.And;
import io.shelfmark.segment.predicate.Eq;
import io.shelfmark.segment.predicate.In;
import io.shelfmark.segment.predicate.IsNull;
import io.shelfmark.segment.predicate.Not;
import io.shelfmark.segment.predicate.Or;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.spi.Value;
import org.roaringbitmap.RoaringBitmap;

/**
 * Brute-force evaluation of a predicate over a {@link TestingTable}, doc by doc, in SQL's
 * three-valued logic written out directly (Kleene AND/OR/NOT, no rewriting): the reference the
 * indexes must equal.
 */
public final class ScanOracle {
  private final TestingTable table;

  public ScanOracle(TestingTable table) {
    this.table = table;
  }

  /** The docs of {@code context} for which the predicate is TRUE. */
  public RoaringBitmap matches(Predicate predicate, RoaringBitmap context) {
    RoaringBitmap result = new RoaringBitmap();
    context.forEach(
        (int doc) -> {
          if (evaluate(predicate, doc) == Boolean.TRUE) {
            result.add(doc);
          }
        });
    return result;
  }

  /** TRUE, FALSE, or null for UNKNOWN. */
  public Boolean evaluate(Predicate predicate, int doc) {
    return switch (predicate) {
      case Eq eq -> compare(eq.column(), doc, value -> value.compareTo(eq.value()) == 0);
      case In in -> compare(in.column(), doc, value -> contains(in.values(), value));
      case Range range -> compare(range.column(), doc, range::contains);
      case IsNull isNull -> table.values(isNull.column())[doc] == null;
      case Not not -> {
        Boolean operand = evaluate(not.operand(), doc);
        yield operand == null ? null : !operand;
      }
      case And and -> {
        boolean unknown = false;
        for (Predicate operand : and.operands()) {
          Boolean result = evaluate(operand, doc);
          if (result == Boolean.FALSE) {
            yield false;
          }
          unknown |= result == null;
        }
        yield unknown ? null : true;
      }
      case Or or -> {
        boolean unknown = false;
        for (Predicate operand : or.operands()) {
          Boolean result = evaluate(operand, doc);
          if (result == Boolean.TRUE) {
            yield true;
          }
          unknown |= result == null;
        }
        yield unknown ? null : false;
      }
    };
  }

  private static boolean contains(java.util.List<Value> values, Value value) {
    for (Value candidate : values) {
      if (candidate.compareTo(value) == 0) {
        return true;
      }
    }
    return false;
  }

  private Boolean compare(String column, int doc, java.util.function.Predicate<Value> test) {
    Value value = table.values(column)[doc];
    return value == null ? null : test.test(value);
  }
}
