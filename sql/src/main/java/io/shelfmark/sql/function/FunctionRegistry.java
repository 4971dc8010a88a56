package io.shelfmark.sql.function;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The functions a query may call, looked up by name ignoring case. Immutable and thread-safe;
 * passed to the planner through its constructor (a deployment can withhold a function by building a
 * registry without it).
 */
public final class FunctionRegistry {
  private final Map<String, BuiltinFunction> bySpelling;

  private FunctionRegistry(Collection<BuiltinFunction> functions) {
    ImmutableSortedMap.Builder<String, BuiltinFunction> builder = ImmutableSortedMap.naturalOrder();
    for (BuiltinFunction function : functions) {
      for (String spelling : function.spellings()) {
        builder.put(spelling, function);
      }
    }
    this.bySpelling = builder.buildOrThrow();
  }

  /** Every built-in function. */
  public static FunctionRegistry standard() {
    return new FunctionRegistry(EnumSet.allOf(BuiltinFunction.class));
  }

  public static FunctionRegistry of(Collection<BuiltinFunction> functions) {
    requireNonNull(functions, "functions is null");
    return new FunctionRegistry(
        functions.isEmpty() ? EnumSet.noneOf(BuiltinFunction.class) : EnumSet.copyOf(functions));
  }

  /** The function spelled {@code name}, ignoring case. */
  public Optional<BuiltinFunction> lookup(String name) {
    requireNonNull(name, "name is null");
    return Optional.ofNullable(bySpelling.get(name.toLowerCase(Locale.ROOT)));
  }

  /** Every spelling, sorted: for the hint of an unknown-function error. */
  public List<String> names() {
    return List.copyOf(bySpelling.keySet());
  }

  @Override
  public String toString() {
    return "FunctionRegistry" + names();
  }
}
