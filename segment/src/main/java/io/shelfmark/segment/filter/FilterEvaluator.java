package io.shelfmark.segment.filter;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.predicate.And;
import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.predicate.IsNull;
import io.shelfmark.segment.predicate.LongIntervals;
import io.shelfmark.segment.predicate.Not;
import io.shelfmark.segment.predicate.Or;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexResult;
import io.shelfmark.segment.spi.IndexType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * Turns a predicate tree into doc-id bitmaps with a segment's indexes: AND, OR and NOT become
 * bitmap algebra, each comparison goes to the column's best index, and what no index covers is
 * returned as a residual with its candidate docs (see {@link FilterResult}).
 *
 * <p>Evaluation runs inside a context bitmap — all docs, or the docs left after row-group pruning
 * and after subtracting the deleted docs of the current snapshot — so deletes combine with index
 * results by passing {@code allDocs - deleted} as the context. Each AND operand is evaluated only
 * within the docs its predecessors left possible, cheapest first (a forward-index scan of a needle
 * predicate then touches only the few docs the other predicates left).
 *
 * <p>Proof sketch of the residual rule: an operand's result (D, C, r) satisfies D ⊆ matches ⊆ D ∪ C
 * within its context and r ≡ operand on C. For AND, a final candidate lies in every operand's D ∪
 * C, so the AND of the operands that produced candidates decides it (an operand's own residual may
 * stand in when its D is empty); for OR, a final candidate lies in no operand's D, so the OR of the
 * operands that produced candidates decides it. Stateless apart from the segment; thread safe.
 */
public final class FilterEvaluator {
  private final Segment segment;

  public FilterEvaluator(Segment segment) {
    this.segment = requireNonNull(segment, "segment is null");
  }

  /** Evaluates over every doc of the segment. */
  public FilterResult evaluate(Predicate predicate) throws IOException {
    return evaluate(predicate, segment.allDocs());
  }

  /**
   * Evaluates within {@code context} (not modified).
   *
   * @throws IllegalArgumentException when a literal's type differs from its column's
   */
  public FilterResult evaluate(Predicate predicate, RoaringBitmap context) throws IOException {
    requireNonNull(predicate, "predicate is null");
    requireNonNull(context, "context is null");
    List<String> used = new ArrayList<>();
    Partial result = evaluate(NegationNormalForm.of(predicate), context, used);
    return new FilterResult(
        result.definite,
        result.candidates,
        result.candidates.isEmpty() ? Optional.empty() : result.residual,
        used);
  }

  /**
   * One node's answer; {@code residual} is meaningful only when there are candidates. Both bitmaps
   * are fresh and owned by the node's caller (never the context, never a shared bitmap), which may
   * therefore accumulate into them.
   */
  private record Partial(
      RoaringBitmap definite, RoaringBitmap candidates, Optional<Predicate> residual) {
    static Partial exact(RoaringBitmap definite) {
      return new Partial(definite, new RoaringBitmap(), Optional.empty());
    }
  }

  private Partial evaluate(Predicate predicate, RoaringBitmap context, List<String> used)
      throws IOException {
    return switch (predicate) {
      case And and -> and(and.operands(), context, used);
      case Or or -> or(or.operands(), context, used);
      case Not not -> leaf(not.operand(), true, context, used);
      case ColumnPredicate leaf -> leaf(leaf, false, context, used);
      case IsNull leaf -> leaf(leaf, false, context, used);
    };
  }

  private Partial and(List<Predicate> operands, RoaringBitmap context, List<String> used)
      throws IOException {
    // Cheapest first: each operand then runs only within the docs the previous ones left.
    List<Predicate> ordered = cheapestFirst(operands);
    // While every operand so far was exact, definite == possible: the last operand's docs (an
    // operand's answer lies inside the docs it was given), so neither needs an intersection.
    boolean exact = true;
    RoaringBitmap definite = context;
    RoaringBitmap possible = context;
    List<Predicate> residuals = new ArrayList<>();
    for (Predicate operand : ordered) {
      Partial part = evaluate(operand, possible, used);
      boolean partExact = part.candidates.isEmpty();
      definite = exact ? part.definite : RoaringBitmap.and(definite, part.definite);
      possible = partExact ? part.definite : RoaringBitmap.or(part.definite, part.candidates);
      if (!partExact) {
        residuals.add(part.definite.isEmpty() ? part.residual.orElseThrow() : operand);
        exact = false;
      }
      if (possible.isEmpty()) {
        return Partial.exact(new RoaringBitmap());
      }
    }
    if (definite == context) {
      // No operand: the caller owns what it gets, and the context is not ours to give.
      return Partial.exact(context.clone());
    }
    RoaringBitmap candidates =
        exact ? new RoaringBitmap() : RoaringBitmap.andNot(possible, definite);
    return new Partial(definite, candidates, combine(residuals, true));
  }

  /** The operands ordered by {@link #estimate}, each estimated once; stable for equal costs. */
  private List<Predicate> cheapestFirst(List<Predicate> operands) {
    int count = operands.size();
    Predicate[] ordered = new Predicate[count];
    int[] costs = new int[count];
    for (int i = 0; i < count; i++) {
      Predicate operand = operands.get(i);
      int cost = estimate(operand);
      int at = i;
      while (at > 0 && costs[at - 1] > cost) {
        ordered[at] = ordered[at - 1];
        costs[at] = costs[at - 1];
        at--;
      }
      ordered[at] = operand;
      costs[at] = cost;
    }
    return Arrays.asList(ordered);
  }

  private Partial or(List<Predicate> operands, RoaringBitmap context, List<String> used)
      throws IOException {
    // Every node's bitmaps are fresh and its own, so the first operand's become the accumulators.
    RoaringBitmap definite = null;
    RoaringBitmap candidates = null;
    List<Predicate> residuals = new ArrayList<>();
    for (Predicate operand : operands) {
      RoaringBitmap remaining =
          definite == null || definite.isEmpty()
              ? context
              : RoaringBitmap.andNot(context, definite);
      if (remaining.isEmpty()) {
        break;
      }
      Partial part = evaluate(operand, remaining, used);
      if (definite == null) {
        definite = part.definite;
      } else {
        definite.or(part.definite);
      }
      if (!part.candidates.isEmpty()) {
        if (candidates == null) {
          candidates = part.candidates;
        } else {
          candidates.or(part.candidates);
        }
        residuals.add(operand);
      }
    }
    if (definite == null) {
      return Partial.exact(new RoaringBitmap());
    }
    if (candidates == null) {
      return new Partial(definite, new RoaringBitmap(), Optional.empty());
    }
    candidates.andNot(definite);
    return new Partial(definite, candidates, combine(residuals, false));
  }

  private static Optional<Predicate> combine(List<Predicate> residuals, boolean and) {
    if (residuals.isEmpty()) {
      return Optional.empty();
    }
    if (residuals.size() == 1) {
      return Optional.of(residuals.get(0));
    }
    return Optional.of(and ? new And(residuals) : new Or(residuals));
  }

  /**
   * A rough cost for ordering AND operands, without reading any part: IS NULL first, then
   * comparisons by their best index's preference (candidates-only indexes after exact ones), then
   * compound operands, then comparisons no index answers.
   */
  private int estimate(Predicate predicate) {
    Predicate leaf = predicate instanceof Not not ? not.operand() : predicate;
    return switch (leaf) {
      case IsNull isNull -> segment.column(isNull.column()).isPresent() ? 0 : 10_000;
      case ColumnPredicate comparison -> comparisonEstimate(comparison);
      default -> 1_000;
    };
  }

  private int comparisonEstimate(ColumnPredicate comparison) {
    Optional<ColumnDescriptor> column = segment.column(comparison.column());
    if (column.isEmpty()) {
      return 10_000;
    }
    int best = 10_000;
    for (IndexType type : segment.indexTypes(comparison.column())) {
      Coverage coverage = type.coverage(column.get().type(), comparison);
      if (coverage != Coverage.NONE) {
        int penalty = coverage == Coverage.EXACT ? 0 : 500;
        best = Math.min(best, type.preference(comparison) + penalty);
      }
    }
    return best;
  }

  private Partial leaf(Predicate leaf, boolean negated, RoaringBitmap context, List<String> used)
      throws IOException {
    String columnName =
        switch (leaf) {
          case ColumnPredicate comparison -> comparison.column();
          case IsNull isNull -> isNull.column();
          default ->
              throw new IllegalStateException("Cannot evaluate non-leaf " + leaf + " as a leaf");
        };
    Predicate asWritten = negated ? new Not(leaf) : leaf;
    Optional<ColumnDescriptor> column = segment.column(columnName);
    if (column.isEmpty()) {
      // The segment knows nothing of this column: every doc of the context is a candidate.
      return new Partial(new RoaringBitmap(), context.clone(), Optional.of(asWritten));
    }
    RoaringBitmap nulls = segment.nulls(columnName);
    used.add("nulls[" + columnName + "]");
    if (leaf instanceof IsNull) {
      return Partial.exact(
          negated ? RoaringBitmap.andNot(context, nulls) : RoaringBitmap.and(context, nulls));
    }
    ColumnPredicate comparison = (ColumnPredicate) leaf;
    LongIntervals.checkType(comparison, column.get().type());
    Optional<IndexReader> reader = choose(column.get(), comparison, used);
    if (reader.isEmpty()) {
      // A comparison is never true on null: only the non-null docs are candidates.
      RoaringBitmap nonNull =
          nulls.isEmpty() ? context.clone() : RoaringBitmap.andNot(context, nulls);
      return new Partial(new RoaringBitmap(), nonNull, Optional.of(asWritten));
    }
    IndexResult result = reader.get().evaluate(comparison, context);
    if (!negated) {
      return new Partial(result.definite(), result.candidates(), Optional.of(asWritten));
    }
    // NOT: true where the value is present and the comparison is false. Candidates stay unknown.
    RoaringBitmap definite = RoaringBitmap.andNot(context, result.definite());
    if (!nulls.isEmpty()) {
      definite.andNot(nulls);
    }
    if (!result.candidates().isEmpty()) {
      definite.andNot(result.candidates());
    }
    return new Partial(definite, result.candidates(), Optional.of(asWritten));
  }

  /** The column's index with the best coverage, then the lowest preference; opens only that one. */
  private Optional<IndexReader> choose(
      ColumnDescriptor column, ColumnPredicate predicate, List<String> used) throws IOException {
    IndexType best = null;
    Coverage bestCoverage = Coverage.NONE;
    for (IndexType type : segment.indexTypes(column.name())) {
      Coverage coverage = type.coverage(column.type(), predicate);
      if (coverage.compareTo(bestCoverage) > 0
          || (coverage != Coverage.NONE
              && coverage == bestCoverage
              && type.preference(predicate) < best.preference(predicate))) {
        best = type;
        bestCoverage = coverage;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    Optional<IndexReader> reader = segment.index(column.name(), best.id());
    if (reader.isPresent() && reader.get().coverage(predicate) != Coverage.NONE) {
      used.add(best.id() + "[" + column.name() + "]");
      return reader;
    }
    return Optional.empty();
  }
}
