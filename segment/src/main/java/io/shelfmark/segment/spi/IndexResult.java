package io.shelfmark.segment.spi;

import static java.util.Objects.requireNonNull;

import org.roaringbitmap.RoaringBitmap;

/**
 * What an index says about a predicate over the docs of a context bitmap: {@code definite} docs
 * match for sure; {@code candidates} may match and need the predicate checked against the values (a
 * post-filter); every other doc of the context does not match. The two bitmaps are disjoint and lie
 * inside the context. An exact answer has no candidates.
 *
 * <p>The bitmaps belong to the caller, who may modify them; readers never keep a reference.
 */
public record IndexResult(RoaringBitmap definite, RoaringBitmap candidates) {
  public IndexResult {
    requireNonNull(definite, "definite is null");
    requireNonNull(candidates, "candidates is null");
  }

  /** An exact answer. */
  public static IndexResult exact(RoaringBitmap matches) {
    return new IndexResult(matches, new RoaringBitmap());
  }

  /** Candidates only: nothing is certain. */
  public static IndexResult candidates(RoaringBitmap candidates) {
    return new IndexResult(new RoaringBitmap(), candidates);
  }

  /** No doc matches. */
  public static IndexResult none() {
    return new IndexResult(new RoaringBitmap(), new RoaringBitmap());
  }

  public boolean isExact() {
    return candidates.isEmpty();
  }

  @Override
  public String toString() {
    return "IndexResult[definite %d, candidates %d]"
        .formatted(definite.getLongCardinality(), candidates.getLongCardinality());
  }
}
