package io.shelfmark.catalog.io;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.ObjectStore;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Object stores an {@link ObjectStoreFileIO} made by reflection can find by name (catalog property
 * {@value FileIOProperties#SHARED_STORE}), so that it reads through the node's store instead of
 * building a second client with its own connection pool and credentials.
 *
 * <p>Why a process-wide table, when stores otherwise arrive through constructors: some Iceberg
 * catalogs (iceberg-aws's {@code GlueCatalog}) build every table's FileIO themselves from the
 * catalog's properties, with {@code io-impl}'s no-argument constructor; a name in those properties
 * is the only thing that reaches the FileIO.
 *
 * <p>Entries hold their store weakly: the table keeps no store alive, and an entry goes once its
 * store is unreachable (the caller that opened the catalog keeps the store while it uses the
 * catalog, as it must anyway). A FileIO that finds no store under its name fails naming the
 * property.
 *
 * <p>Thread safety: safe for concurrent use.
 */
public final class SharedObjectStores {
  private static final Map<String, WeakReference<ObjectStore>> STORES = new ConcurrentHashMap<>();

  private SharedObjectStores() {}

  /**
   * Makes {@code store} findable under a fresh name, the value to set as {@value
   * FileIOProperties#SHARED_STORE}.
   */
  public static String register(ObjectStore store) {
    requireNonNull(store, "store is null");
    // Drop the entries of stores that were collected, so that opening catalogs again and again
    // (tests, restarts in one JVM) does not grow the table.
    STORES.values().removeIf(reference -> reference.get() == null);
    String name = "store-" + UUID.randomUUID();
    STORES.put(name, new WeakReference<>(store));
    return name;
  }

  /** The store registered under {@code name}, or empty when there is none (any longer). */
  static Optional<ObjectStore> find(String name) {
    requireNonNull(name, "name is null");
    WeakReference<ObjectStore> reference = STORES.get(name);
    return Optional.ofNullable(reference == null ? null : reference.get());
  }
}
