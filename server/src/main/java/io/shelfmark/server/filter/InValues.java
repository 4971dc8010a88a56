package io.shelfmark.server.filter;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.shelfmark.segment.predicate.In;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.sql.expression.InList;
import io.shelfmark.sql.expression.Literal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The non-null items of an {@code IN} list as segment values of one type, sorted and distinct as
 * {@link In} keeps them. A query's filter is translated once per file, so without this a list of
 * 10,000 strings was converted and sorted again for each of a table's files; the plan's list is one
 * object for every file, so the values are kept by its identity while it lives. Thread safe.
 */
final class InValues {
  private static final Cache<InList, InValues> BY_LIST = Caffeine.newBuilder().weakKeys().build();

  private final InList in;
  private final Map<ValueType, Optional<List<Value>>> byType = new EnumMap<>(ValueType.class);

  private InValues(InList in) {
    this.in = in;
  }

  /**
   * The list's non-null items as sorted distinct values of {@code type}; empty when an item has
   * another representation (the list then stays residual).
   */
  static Optional<List<Value>> of(InList in, ValueType type) {
    return BY_LIST.get(in, InValues::new).values(type);
  }

  private synchronized Optional<List<Value>> values(ValueType type) {
    return byType.computeIfAbsent(type, this::convert);
  }

  private Optional<List<Value>> convert(ValueType type) {
    TreeSet<Value> values = new TreeSet<>();
    for (Literal item : in.items()) {
      if (item.isNull()) {
        continue;
      }
      Optional<Value> value = PredicateTranslator.value(item, type);
      if (value.isEmpty()) {
        return Optional.empty();
      }
      values.add(value.get());
    }
    return Optional.of(List.copyOf(new ArrayList<>(values)));
  }
}
