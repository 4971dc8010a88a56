package io.shelfmark.exchange.result;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.vector.Vector;
import java.nio.ByteBuffer;
import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The groups of a partial aggregation held in columns: a vector per GROUP BY key and a {@link
 * StateColumn} per aggregate, indexed by group. Read as a list, each {@link Group} is boxed when it
 * is read; the merge ({@link GroupColumnsMerge}) and the finisher read the columns themselves.
 *
 * <p>Why: a many-group query (a {@code GROUP BY} of a timestamp) made eight objects per group per
 * file (the group, its key and state arrays and lists, a boxed key, a state per aggregate), all
 * live until the merge. Young collections copied them, pausing every query on the node for tens of
 * milliseconds; a few primitive arrays per file are copied in microseconds or not at all.
 */
public final class GroupColumns extends AbstractList<Group> implements RandomAccess {
  private final int size;
  private final List<Vector> keys;
  private final List<StateColumn> states;

  /**
   * @param size the number of groups
   * @param keys one vector per GROUP BY key, of at least {@code size} rows, each group's key once
   * @param states one column per aggregate, in the plan's order
   */
  public GroupColumns(int size, List<Vector> keys, List<StateColumn> states) {
    if (size < 0) {
      throw new IllegalArgumentException("Cannot hold " + size + " groups");
    }
    this.size = size;
    this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
    this.states = List.copyOf(requireNonNull(states, "states is null"));
    for (Vector key : this.keys) {
      if (key.size() < size) {
        throw new IllegalArgumentException(
            "Cannot hold %d groups in a key vector of %d rows".formatted(size, key.size()));
      }
    }
  }

  public List<Vector> keys() {
    return keys;
  }

  public List<StateColumn> states() {
    return states;
  }

  @Override
  public Group get(int index) {
    Objects.checkIndex(index, size);
    Object[] key = new Object[keys.size()];
    for (int k = 0; k < key.length; k++) {
      Object value = keys.get(k).boxed(index);
      // A group's key holds bytes as a buffer, equal by content (as the server boxes them).
      key[k] = value instanceof byte[] bytes ? ByteBuffer.wrap(bytes).asReadOnlyBuffer() : value;
    }
    AggregateState[] values = new AggregateState[states.size()];
    for (int a = 0; a < values.length; a++) {
      values[a] = states.get(a).state(index);
    }
    return Group.owning(key, values);
  }

  @Override
  public int size() {
    return size;
  }
}
