package io.shelfmark.config.table;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.Sets;
import java.util.Set;

/**
 * The indexes to build for one column ({@code columns.<column>.indexes}).
 *
 * @param indexes the index kinds, never empty
 */
public record ColumnConfig(Set<IndexKind> indexes) {
  public ColumnConfig {
    indexes = Sets.immutableEnumSet(requireNonNull(indexes, "indexes is null"));
    checkArgument(!indexes.isEmpty(), "Cannot use a column config without indexes");
  }

  /** A column with the given indexes. */
  public static ColumnConfig of(IndexKind first, IndexKind... rest) {
    return new ColumnConfig(Sets.immutableEnumSet(first, rest));
  }

  /** Whether this column asks for {@code kind}. */
  public boolean has(IndexKind kind) {
    return indexes.contains(kind);
  }
}
