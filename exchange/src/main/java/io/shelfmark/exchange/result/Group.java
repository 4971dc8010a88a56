package io.shelfmark.exchange.result;

import static java.util.Objects.requireNonNull;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.RandomAccess;

/**
 * One group of a partial aggregation: its GROUP BY key values (boxed in the SQL types'
 * representations, NULL allowed; empty without GROUP BY) and one state per aggregate of the plan.
 */
public record Group(List<Object> key, List<AggregateState> states) {
  public Group {
    requireNonNull(key, "key is null");
    requireNonNull(states, "states is null");
    key = key instanceof Owned<Object> ? key : Collections.unmodifiableList(new ArrayList<>(key));
    states = states instanceof Owned<AggregateState> ? states : List.copyOf(states);
  }

  /**
   * A group over arrays handed over by the caller, who keeps no reference to them: no copy. A
   * many-group query makes a group per key per file, and the two defensive copies were half of each
   * group's objects.
   */
  public static Group owning(Object[] key, AggregateState[] states) {
    for (AggregateState state : states) {
      requireNonNull(state, "state is null");
    }
    return new Group(new Owned<>(key), new Owned<>(states));
  }

  /** An unmodifiable list over an array nobody else holds (NULL elements allowed). */
  private static final class Owned<T> extends AbstractList<T> implements RandomAccess {
    private final T[] values;

    Owned(T[] values) {
      this.values = values;
    }

    @Override
    public T get(int index) {
      return values[index];
    }

    @Override
    public int size() {
      return values.length;
    }

    // The boxed merge hashes every group's key: AbstractList's versions allocate an iterator per
    // call. Same contracts as List's.
    @Override
    public int hashCode() {
      return Arrays.hashCode(values);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Owned<?> owned
          ? Arrays.equals(values, owned.values)
          : super.equals(other);
    }
  }

  /** The merge of {@code groups} (at least one, all of one key), states merged all at once. */
  static Group mergeAll(List<Group> groups) {
    Group first = groups.getFirst();
    AggregateState[] merged = new AggregateState[first.states.size()];
    List<AggregateState> column = new ArrayList<>(groups.size());
    for (int i = 0; i < merged.length; i++) {
      column.clear();
      for (Group group : groups) {
        column.add(group.states.get(i));
      }
      merged[i] = AggregateState.mergeAll(column);
    }
    return new Group(first.key, new Owned<>(merged));
  }

  /** This group's states merged with {@code other}'s (same key, same aggregates). */
  public Group merge(Group other) {
    AggregateState[] merged = new AggregateState[states.size()];
    for (int i = 0; i < merged.length; i++) {
      merged[i] = states.get(i).merge(other.states.get(i));
    }
    return new Group(key, new Owned<>(merged));
  }
}
