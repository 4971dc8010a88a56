package io.shelfmark.segment.startree;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.spi.ValueType;

/**
 * One dimension of a star-tree: its definition as the table config writes it ({@code metric},
 * {@code dimensions['service']}, {@code dateTrunc('minute', logical_timestamp)}) and the type of
 * its values in the segment. The segment does not interpret the name; servers match it against a
 * query's expressions.
 */
public record StarTreeDimension(String name, ValueType type) {
  public StarTreeDimension {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
  }
}
