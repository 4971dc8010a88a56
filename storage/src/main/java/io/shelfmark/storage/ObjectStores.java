package io.shelfmark.storage;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.storage.local.LocalObjectStore;
import io.shelfmark.storage.s3.S3ObjectStore;
import io.shelfmark.storage.s3.S3StoreOptions;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.StorageStats;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Opens object stores. Most callers want {@link #open(StorageConfig)}: one store for the cluster's
 * {@code storage} section, serving both {@code s3://} and {@code file:} locations, counting into
 * one {@link StorageStats}. The caller owns the store and closes it.
 */
public final class ObjectStores {
  private ObjectStores() {}

  /**
   * The store for a cluster's {@code storage} section.
   *
   * <ul>
   *   <li>{@code type: s3}: s3:// locations through {@link S3ObjectStore}, file: locations from the
   *       local filesystem (anywhere), one shared {@link StorageStats}.
   *   <li>{@code type: local}: a {@link LocalObjectStore} confined to {@code storage.root}, serving
   *       file: locations below it and s3://bucket/key from {@code <root>/bucket/key}.
   * </ul>
   */
  public static ObjectStore open(StorageConfig config) {
    requireNonNull(config, "config is null");
    return switch (config.type()) {
      case S3 -> open(S3StoreOptions.from(config));
      case LOCAL -> local(config.root().orElseThrow());
    };
  }

  /** s3:// through S3 with {@code options}, file: from the local filesystem; shared counters. */
  public static ObjectStore open(S3StoreOptions options) {
    requireNonNull(options, "options is null");
    StorageStats stats = new StorageStats();
    return new RoutingObjectStore(
        Optional.of(new S3ObjectStore(options, stats)),
        Optional.of(new LocalObjectStore(Optional.empty(), stats)));
  }

  /** An S3 store alone (s3:// locations only). */
  public static S3ObjectStore s3(S3StoreOptions options) {
    return new S3ObjectStore(options);
  }

  /** A local store confined to {@code root}; s3://bucket/key is served from root/bucket/key. */
  public static LocalObjectStore local(Path root) {
    return LocalObjectStore.confinedTo(root);
  }

  /** A local store for file: locations anywhere on this machine. */
  public static LocalObjectStore local() {
    return LocalObjectStore.unconfined();
  }
}
