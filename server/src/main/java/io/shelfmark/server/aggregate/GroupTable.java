package io.shelfmark.server.aggregate;

import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.exchange.vector.VectorInputs;
import io.shelfmark.exchange.vector.Vectors;
import io.shelfmark.sql.expression.Expression;
import java.util.ArrayList;
import java.util.List;

/**
 * Assigns dense group ids to rows by their GROUP BY key values. Each key is numbered on its own
 * ({@link KeyColumn}); several keys combine pairwise, {@code (group so far, next key id)} packed in
 * a long and numbered through a {@link LongIntMap}, so no row allocates a key tuple. With no keys
 * every row is group 0. Not thread safe.
 */
final class GroupTable {
  private final List<KeyColumn> keys = new ArrayList<>();
  private final List<LongIntMap> combinations = new ArrayList<>();
  // Per combination level, per combined id: the id it came from and the key id it added.
  private final List<int[][]> parents = new ArrayList<>();
  private int[] scratch = new int[0]; // sized by the first batch with two keys or more
  private int groupCount;

  GroupTable(List<Expression> keyExpressions) {
    for (int i = 0; i < keyExpressions.size(); i++) {
      keys.add(new KeyColumn(keyExpressions.get(i)));
      if (i > 0) {
        combinations.add(new LongIntMap(64));
        parents.add(new int[][] {new int[64], new int[64]});
      }
    }
    groupCount = keyExpressions.isEmpty() ? 1 : 0;
  }

  /**
   * Writes the group id of each selected row {@code sel[0..n)} of a batch of {@code size} rows into
   * {@code out[0..n)}.
   */
  void groupIds(VectorInputs inputs, int size, int[] sel, int n, int[] out) {
    if (keys.isEmpty()) {
      java.util.Arrays.fill(out, 0, n, 0);
      return;
    }
    keys.get(0).ids(inputs, size, sel, n, out);
    if (scratch.length < n) {
      scratch = new int[n];
    }
    for (int k = 1; k < keys.size(); k++) {
      keys.get(k).ids(inputs, size, sel, n, scratch);
      LongIntMap map = combinations.get(k - 1);
      int[][] parent = parents.get(k - 1);
      for (int j = 0; j < n; j++) {
        int before = map.size();
        int id = map.getOrAdd(((long) out[j] << 32) | (scratch[j] & 0xFFFFFFFFL));
        if (id == before) {
          parent = record(k - 1, parent, id, out[j], scratch[j]);
        }
        out[j] = id;
      }
    }
    groupCount = keys.size() == 1 ? keys.get(0).size() : combinations.getLast().size();
  }

  private int[][] record(int level, int[][] parent, int id, int previous, int key) {
    if (id >= parent[0].length) {
      parent =
          new int[][] {
            java.util.Arrays.copyOf(parent[0], id * 2), java.util.Arrays.copyOf(parent[1], id * 2)
          };
      parents.set(level, parent);
    }
    parent[0][id] = previous;
    parent[1][id] = key;
    return parent;
  }

  int groupCount() {
    return groupCount;
  }

  /** The key values of group {@code group}, in key order, in a new array. */
  Object[] key(int group) {
    Object[] values = new Object[keys.size()];
    int id = group;
    for (int k = keys.size() - 1; k >= 1; k--) {
      int[][] parent = parents.get(k - 1);
      values[k] = keys.get(k).value(parent[1][id]);
      id = parent[0][id];
    }
    if (!keys.isEmpty()) {
      values[0] = keys.get(0).value(id);
    }
    return values;
  }

  /**
   * The values of key {@code k} of groups {@code [0, count)}, in a vector of the key's type: the
   * key column's own values (already boxed once, when first seen) in group order.
   */
  Vector keyVector(int k, int count) {
    List<Object> values = new ArrayList<>(count);
    for (int group = 0; group < count; group++) {
      int id = group;
      for (int level = keys.size() - 1; level > k; level--) {
        id = parents.get(level - 1)[0][id];
      }
      if (k > 0) {
        id = parents.get(k - 1)[1][id];
      }
      values.add(keys.get(k).value(id));
    }
    return Vectors.ofBoxed(keys.get(k).type(), values);
  }
}
