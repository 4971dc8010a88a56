package io.shelfmark.exchange.result;

import io.shelfmark.exchange.vector.Values;
import io.shelfmark.sql.plan.NullOrder;
import io.shelfmark.sql.plan.SortDirection;
import io.shelfmark.sql.plan.SortKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * ORDER BY over boxed rows whose sort values sit at {@code offset}, {@code offset + 1}, ...: each
 * key in its direction, NULLs first or last as the key says (independently of the direction), as
 * DuckDB orders them.
 */
public final class RowOrdering implements Comparator<List<Object>> {
  private final List<SortKey> keys;
  private final int offset;

  public RowOrdering(List<SortKey> keys, int offset) {
    this.keys = List.copyOf(keys);
    this.offset = offset;
  }

  @Override
  public int compare(List<Object> left, List<Object> right) {
    for (int k = 0; k < keys.size(); k++) {
      SortKey key = keys.get(k);
      Object a = left.get(offset + k);
      Object b = right.get(offset + k);
      int compare;
      if (a == null || b == null) {
        if (a == b) {
          continue;
        }
        boolean nullFirst = key.nullOrder() == NullOrder.FIRST;
        compare = (a == null) == nullFirst ? -1 : 1;
      } else {
        compare = Values.compare(a, b);
        if (key.direction() == SortDirection.DESC) {
          compare = -compare;
        }
      }
      if (compare != 0) {
        return compare;
      }
    }
    return 0;
  }

  /**
   * The first {@code count} rows in this order (all of them, sorted, when fewer), keeping at most
   * {@code count} in a heap at a time.
   */
  public List<List<Object>> first(List<List<Object>> rows, long count) {
    return first(rows, count, () -> {});
  }

  /**
   * As {@link #first(List, long)}, calling {@code check} every {@value #CHECK_EVERY} comparisons
   * (the deadline): sorting a million groups takes seconds, and a check only before and after would
   * let a query overrun its timeout by all of them.
   */
  public List<List<Object>> first(List<List<Object>> rows, long count, Runnable check) {
    Comparator<List<Object>> order = checking(this, check);
    if (count >= rows.size()) {
      List<List<Object>> sorted = new ArrayList<>(rows);
      sorted.sort(order);
      return sorted;
    }
    int limit = (int) count;
    PriorityQueue<List<Object>> worstFirst =
        new PriorityQueue<>(Math.max(1, limit), order.reversed());
    int scanned = 0;
    for (List<Object> row : rows) {
      if ((++scanned & (CHECK_EVERY - 1)) == 0) {
        check.run();
      }
      if (worstFirst.size() < limit) {
        worstFirst.add(row);
      } else if (limit > 0 && compare(row, worstFirst.peek()) < 0) {
        worstFirst.poll();
        worstFirst.add(row);
      }
    }
    List<List<Object>> sorted = new ArrayList<>(worstFirst);
    sorted.sort(order);
    return sorted;
  }

  private static final int CHECK_EVERY = 1 << 16;

  private static <T> Comparator<T> checking(Comparator<T> order, Runnable check) {
    int[] compared = new int[1];
    return (left, right) -> {
      if ((++compared[0] & (CHECK_EVERY - 1)) == 0) {
        check.run();
      }
      return order.compare(left, right);
    };
  }
}
