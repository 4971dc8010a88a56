package io.shelfmark.segment.index;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import io.shelfmark.segment.format.PartKinds;
import io.shelfmark.segment.spi.IndexPlugin;
import io.shelfmark.segment.spi.IndexType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The index types a process knows, by persisted id. Built once (usually from the installed plugins
 * with {@link #installed()}) and handed to segment builders and readers through their constructors:
 * there is no static registry. Immutable and thread safe; iteration is in id order, so builds are
 * deterministic.
 */
public final class IndexService {
  private final ImmutableSortedMap<String, IndexType> types;

  /** A service knowing exactly {@code types}; ids must be distinct and not core part kinds. */
  public IndexService(Collection<IndexType> types) {
    ImmutableSortedMap.Builder<String, IndexType> byId = ImmutableSortedMap.naturalOrder();
    List<String> seen = new ArrayList<>();
    for (IndexType type : requireNonNull(types, "types is null")) {
      String id = type.id();
      if (PartKinds.CORE.contains(id)) {
        throw new IllegalArgumentException(
            "Cannot register index type %s: its id '%s' is a core part kind"
                .formatted(type.getClass().getName(), id));
      }
      if (seen.contains(id)) {
        throw new IllegalArgumentException("Cannot register two index types with id '" + id + "'");
      }
      seen.add(id);
      byId.put(id, type);
    }
    this.types = byId.buildOrThrow();
  }

  /** The index types of the plugins on the class path ({@code META-INF/services}). */
  public static IndexService installed() {
    return installed(IndexService.class.getClassLoader());
  }

  /** The index types of the plugins {@code loader} finds. */
  public static IndexService installed(ClassLoader loader) {
    List<IndexType> types = new ArrayList<>();
    for (IndexPlugin plugin : ServiceLoader.load(IndexPlugin.class, loader)) {
      types.add(plugin.indexType());
    }
    return new IndexService(types);
  }

  public Optional<IndexType> find(String id) {
    return Optional.ofNullable(types.get(id));
  }

  /** The type with {@code id}; an unknown id is a configuration error naming the known ones. */
  public IndexType get(String id) {
    IndexType type = types.get(id);
    if (type == null) {
      throw new IllegalArgumentException(
          "Cannot find index type '%s' (known: %s)"
              .formatted(id, String.join(", ", types.keySet())));
    }
    return type;
  }

  /** Every type, in id order. */
  public Collection<IndexType> types() {
    return types.values();
  }

  @Override
  public String toString() {
    return "IndexService" + types.keySet();
  }
}
