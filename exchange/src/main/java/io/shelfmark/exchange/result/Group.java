package io.shelfmark.exchange.result;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One group of a partial aggregation: its GROUP BY key values (boxed in the SQL types'
 * representations, NULL allowed; empty without GROUP BY) and one state per aggregate of the plan.
 */
public record Group(List<Object> key, List<AggregateState> states) {
  public Group {
    requireNonNull(key, "key is null");
    key = Collections.unmodifiableList(new ArrayList<>(key));
    states = List.copyOf(requireNonNull(states, "states is null"));
  }

  /** The merge of {@code groups} (at least one, all of one key), states merged all at once. */
  static Group mergeAll(List<Group> groups) {
    Group first = groups.getFirst();
    List<AggregateState> merged = new ArrayList<>(first.states.size());
    List<AggregateState> column = new ArrayList<>(groups.size());
    for (int i = 0; i < first.states.size(); i++) {
      column.clear();
      for (Group group : groups) {
        column.add(group.states.get(i));
      }
      merged.add(AggregateState.mergeAll(column));
    }
    return new Group(first.key, merged);
  }

  /** This group's states merged with {@code other}'s (same key, same aggregates). */
  public Group merge(Group other) {
    List<AggregateState> merged = new ArrayList<>(states.size());
    for (int i = 0; i < states.size(); i++) {
      merged.add(states.get(i).merge(other.states.get(i)));
    }
    return new Group(key, merged);
  }
}
