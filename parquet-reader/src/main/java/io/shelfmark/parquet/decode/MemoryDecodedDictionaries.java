package io.shelfmark.parquet.decode;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.parquet.batch.PrimitiveValues;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@link DecodedDictionaries} on the heap, bounded by the values' bytes (Caffeine's size-based
 * eviction, which keeps frequently read dictionaries over recently read ones). Thread safe.
 */
public final class MemoryDecodedDictionaries implements DecodedDictionaries {
  private static final int ENTRY_BYTES = 128;

  private final Cache<DictionaryKey, PrimitiveValues> dictionaries;
  private final long maxBytes;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  private record DictionaryKey(String file, long fileSize, long pageOffset) {}

  public MemoryDecodedDictionaries(DataSize maxSize) {
    requireNonNull(maxSize, "maxSize is null");
    this.maxBytes = maxSize.bytes();
    this.dictionaries =
        Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            .weigher((DictionaryKey key, PrimitiveValues values) -> weight(values))
            .build();
  }

  private static int weight(PrimitiveValues values) {
    return (int) Math.min(Integer.MAX_VALUE, values.heapBytes() + ENTRY_BYTES);
  }

  @Override
  public PrimitiveValues find(String file, long fileSize, long pageOffset) {
    PrimitiveValues values =
        dictionaries.getIfPresent(new DictionaryKey(file, fileSize, pageOffset));
    (values == null ? misses : hits).increment();
    return values;
  }

  @Override
  public void keep(String file, long fileSize, long pageOffset, PrimitiveValues values) {
    requireNonNull(values, "values is null");
    // A dictionary larger than the whole bound would only evict everything else on its way out.
    if (weight(values) <= maxBytes) {
      dictionaries.put(new DictionaryKey(file, fileSize, pageOffset), values);
    }
  }

  @Override
  public void invalidateAll() {
    dictionaries.invalidateAll();
  }

  /** Lookups that found a dictionary. */
  public long hits() {
    return hits.sum();
  }

  /** Lookups that found none. */
  public long misses() {
    return misses.sum();
  }

  /** The bytes of the dictionaries kept now (after pending evictions). */
  public long keptBytes() {
    dictionaries.cleanUp();
    return dictionaries.policy().eviction().orElseThrow().weightedSize().orElse(0);
  }

  @Override
  public String toString() {
    return "MemoryDecodedDictionaries[max " + DataSize.ofBytes(maxBytes) + "]";
  }
}
