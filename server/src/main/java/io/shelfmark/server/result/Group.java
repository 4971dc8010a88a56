package io.shelfmark.server.result;

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

  /** This group's states merged with {@code other}'s (same key, same aggregates). */
  public Group merge(Group other) {
    List<AggregateState> merged = new ArrayList<>(states.size());
    for (int i = 0; i < states.size(); i++) {
      merged.add(states.get(i).merge(other.states.get(i)));
    }
    return new Group(key, merged);
  }
}
