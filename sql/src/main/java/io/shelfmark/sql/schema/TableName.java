package io.shelfmark.sql.schema;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Locale;

/**
 * A table name as written in SQL: its dot-separated parts, such as {@code [obs, metrics]} for
 * {@code obs.metrics}. Case is kept as written.
 */
public record TableName(List<String> parts) {
  public TableName {
    requireNonNull(parts, "parts is null");
    parts = ImmutableList.copyOf(parts);
    checkArgument(!parts.isEmpty(), "a table name has at least one part");
    for (String part : parts) {
      checkArgument(!part.isEmpty(), "a table name part is empty: %s", parts);
    }
  }

  public static TableName of(String... parts) {
    return new TableName(List.of(parts));
  }

  /** Splits {@code obs.metrics} on dots (for names whose parts contain no dot). */
  public static TableName parse(String dotted) {
    requireNonNull(dotted, "dotted is null");
    return new TableName(Splitter.on('.').splitToList(dotted));
  }

  /** The last part: {@code metrics} for {@code obs.metrics}. */
  public String simpleName() {
    return parts.getLast();
  }

  /** Equal ignoring case, part by part. */
  public boolean equalsIgnoreCase(TableName other) {
    return lowerCase().equals(other.lowerCase());
  }

  private List<String> lowerCase() {
    return parts.stream().map(part -> part.toLowerCase(Locale.ROOT)).toList();
  }

  /** Dotted, as written: {@code obs.metrics}. */
  @Override
  public String toString() {
    return String.join(".", parts);
  }
}
