package io.shelfmark.controller.state;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.ConfigException;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.ConfigWriter;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A copy of each onboarded table's config beside its segments, at {@code <segment
 * store>/_tables/<table>.json}: with it the segment store and the catalog hold everything needed to
 * rebuild the controller's state when ZooKeeper's data is lost ({@link StateRecovery}). Written at
 * onboarding when the config is new or changed; never read on the serving path.
 */
public final class TableConfigCopies {
  /** The directory below the segment store's prefix; no table's directory can be named so. */
  public static final String DIRECTORY = "_tables/";

  private final SegmentStore store;

  public TableConfigCopies(SegmentStore store) {
    this.store = requireNonNull(store, "store is null");
  }

  /** Where the copy of {@code table}'s config lives. */
  public Location locationOf(String table) {
    return store.prefix().resolve(DIRECTORY + table.replaceAll("[^A-Za-z0-9._-]", "_") + ".json");
  }

  /** Writes the copy of {@code config} (one PUT). */
  public void write(TableConfig config) throws IOException {
    store
        .objectStore()
        .write(
            locationOf(config.identity().qualifiedName()),
            ConfigWriter.write(config, ConfigFormat.JSON).getBytes(StandardCharsets.UTF_8));
  }

  /** Deletes the copy of {@code table}'s config; false when there was none. */
  public boolean delete(String table) throws IOException {
    return store.objectStore().delete(locationOf(table));
  }

  /**
   * Every table config copied, sorted by location.
   *
   * @throws IOException when the store cannot be listed or read, or a copy is not a valid config
   */
  public List<TableConfig> all() throws IOException {
    List<ObjectInfo> objects;
    try {
      objects = new ArrayList<>(store.objectStore().list(store.prefix().resolve(DIRECTORY)));
    } catch (ObjectNotFoundException e) {
      return List.of();
    }
    objects.sort(Comparator.comparing(object -> object.location().toString()));
    List<TableConfig> configs = new ArrayList<>();
    for (ObjectInfo object : objects) {
      if (!object.location().key().endsWith(".json")) {
        continue;
      }
      String text;
      try (InputStream in = store.objectStore().open(object.location())) {
        text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      try {
        configs.add(ConfigLoader.parseTable(text, ConfigFormat.JSON, object.location().toString()));
      } catch (ConfigException e) {
        throw new IOException(
            "Cannot read table config copy %s: %s (fix or delete it)"
                .formatted(object.location(), e.getMessage()),
            e);
      }
    }
    return configs;
  }
}
