package io.shelfmark.cache;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * An {@link ObjectStore} whose ranged reads go through a {@link TieredCache} with one {@link
 * CachePolicy}, so any reader written against the storage SPI (the Parquet reader for footers and
 * pages, segment sources for index parts) is cached without knowing it. Each use picks its tiers by
 * wrapping the same store and cache with its own policy.
 *
 * <p>Only {@link #readRange} is cached; every other call goes straight to the delegate. {@link
 * #stats()} are the delegate's, so they count what really reached storage. Closing this store
 * closes neither the delegate nor the cache, which are shared. Thread safe.
 */
public final class CachingObjectStore implements ObjectStore {
  private final ObjectStore delegate;
  private final TieredCache cache;
  private final CachePolicy policy;
  private final IdentityResolver identities;
  private final Fetcher fetcher;
  private final ReadSource.Listener listener;

  public CachingObjectStore(
      ObjectStore delegate, TieredCache cache, CachePolicy policy, IdentityResolver identities) {
    this(delegate, cache, policy, identities, ReadSource.Listener.NONE);
  }

  /**
   * A store that also tells {@code listener} where each ranged read found its bytes (a query's own
   * store counts its hits per tier this way).
   */
  public CachingObjectStore(
      ObjectStore delegate,
      TieredCache cache,
      CachePolicy policy,
      IdentityResolver identities,
      ReadSource.Listener listener) {
    this.delegate = requireNonNull(delegate, "delegate is null");
    this.cache = requireNonNull(cache, "cache is null");
    this.policy = requireNonNull(policy, "policy is null");
    this.identities = requireNonNull(identities, "identities is null");
    this.fetcher = Fetcher.fromObjectStore(delegate);
    this.listener = requireNonNull(listener, "listener is null");
  }

  @Override
  public byte[] readRange(Location location, long offset, int length) throws IOException {
    if (length == 0) {
      return new byte[0];
    }
    CacheKey key = CacheKey.of(identities.identify(location), offset, length);
    ByteBuffer cached = cache.read(key, policy, fetcher, listener);
    // The cache hands out read-only views of shared bytes; callers own what readRange returns.
    byte[] copy = new byte[cached.remaining()];
    cached.duplicate().get(copy);
    return copy;
  }

  @Override
  public ObjectInfo stat(Location location) throws IOException {
    return delegate.stat(location);
  }

  @Override
  public InputStream open(Location location) throws IOException {
    return delegate.open(location);
  }

  @Override
  public void write(Location location, byte[] content) throws IOException {
    delegate.write(location, content);
  }

  @Override
  public void upload(Location location, Path file) throws IOException {
    delegate.upload(location, file);
  }

  @Override
  public boolean delete(Location location) throws IOException {
    return delegate.delete(location);
  }

  @Override
  public List<ObjectInfo> list(Location prefix) throws IOException {
    return delegate.list(prefix);
  }

  @Override
  public StorageStats stats() {
    return delegate.stats();
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return "CachingObjectStore{" + policy + " over " + delegate + "}";
  }
}
