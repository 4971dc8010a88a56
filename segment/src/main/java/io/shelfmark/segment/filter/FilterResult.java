package io.shelfmark.segment.filter;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.segment.predicate.Predicate;
import java.util.List;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * A filter's answer for one segment: the matching docs are {@code definite} plus those {@code
 * candidates} for which {@code residual} is true. The server evaluates the residual on the
 * candidates' values read from Parquet (late materialization), then narrows; when the answer is
 * exact there are no candidates and no residual.
 *
 * <p>The residual is in negation normal form: {@code NOT} appears only on a comparison or {@code IS
 * NULL}, and {@code NOT comparison} is true exactly when the column is not null and the comparison
 * is false. The residual is only meaningful on the candidates.
 *
 * @param definite docs that match
 * @param candidates docs that match exactly when the residual holds for them; disjoint from
 *     definite
 * @param residual what must still be checked on the candidates; present exactly when there are
 *     candidates
 * @param indexesUsed the parts consulted, such as {@code inverted[metric]}, for statistics and
 *     tests
 */
public record FilterResult(
    RoaringBitmap definite,
    RoaringBitmap candidates,
    Optional<Predicate> residual,
    List<String> indexesUsed) {
  public FilterResult {
    requireNonNull(definite, "definite is null");
    requireNonNull(candidates, "candidates is null");
    requireNonNull(residual, "residual is null");
    indexesUsed = ImmutableList.copyOf(indexesUsed);
    if (residual.isPresent() == candidates.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot build a filter result with %d candidates and %s residual"
              .formatted(candidates.getLongCardinality(), residual.isPresent() ? "a" : "no"));
    }
  }

  /** Whether the indexes answered exactly. */
  public boolean isExact() {
    return candidates.isEmpty();
  }

  @Override
  public String toString() {
    return "FilterResult[definite %d, candidates %d, residual %s, used %s]"
        .formatted(
            definite.getLongCardinality(),
            candidates.getLongCardinality(),
            residual.map(Object::toString).orElse("none"),
            indexesUsed);
  }
}
