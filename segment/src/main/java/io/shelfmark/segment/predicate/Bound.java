package io.shelfmark.segment.predicate;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.spi.Value;

/** One end of a {@link Range}: a value and whether the value itself is included. */
public record Bound(Value value, boolean inclusive) {
  public Bound {
    requireNonNull(value, "value is null");
  }

  public static Bound inclusive(Value value) {
    return new Bound(value, true);
  }

  public static Bound exclusive(Value value) {
    return new Bound(value, false);
  }
}
