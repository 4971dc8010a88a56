package io.shelfmark.segment.index.mapkey;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.dictionary.BytesIdTable;
import io.shelfmark.segment.dictionary.DictionaryBuilder;
import io.shelfmark.segment.encoding.ValueHash;
import io.shelfmark.segment.spi.ValueType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Splits a MAP&lt;STRING, STRING&gt; column into per-key columns as rows arrive. Each tracked key
 * keeps only its entries (doc and provisional value id), so memory follows the map's entries, not
 * keys × docs; {@link #seal()} selects the keys and expands each to one id per doc. Not thread
 * safe.
 */
public final class MapKeyExtractor {
  /** The most distinct keys automatic selection tracks; later new keys are not considered. */
  public static final int MAX_TRACKED_KEYS = 1024;

  private final MapKeySelection selection;
  private final BytesIdTable keyIds = new BytesIdTable();
  private final List<KeyEntries> keys = new ArrayList<>();
  private int docCount;
  private int call; // numbers the add calls, so per-call caches know when they are stale

  public MapKeyExtractor(MapKeySelection selection) {
    this.selection = requireNonNull(selection, "selection is null");
    if (selection instanceof MapKeySelection.Listed listed) {
      for (String key : listed.keys()) {
        byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
        keyIds.idOf(utf8, 0, utf8.length);
        keys.add(new KeyEntries(key));
      }
    }
  }

  /**
   * Adds {@code rowCount} rows. Row {@code r}'s entries are {@code entryOffsets[r] ..
   * entryOffsets[r + 1] - 1}; entry {@code e}'s key spans {@code keyOffsets[e] .. keyOffsets[e +
   * 1]} of {@code keyData} and its value {@code valueOffsets[e] .. valueOffsets[e + 1]} of {@code
   * valueData} unless {@code valueNulls[e]}. {@code mapNulls[r]} marks a null map (no entries).
   * Either null-flag array may be null when nothing is null. This is the shape of a Parquet map's
   * two leaf batches with their level-1 offsets.
   */
  public void addMaps(
      int rowCount,
      int[] entryOffsets,
      boolean[] mapNulls,
      byte[] keyData,
      int[] keyOffsets,
      byte[] valueData,
      int[] valueOffsets,
      boolean[] valueNulls) {
    for (int row = 0; row < rowCount; row++, docCount++) {
      if (mapNulls != null && mapNulls[row]) {
        continue;
      }
      int end = entryOffsets[row + 1];
      for (int entry = entryOffsets[row]; entry < end; entry++) {
        int keyStart = keyOffsets[entry];
        int keyLength = keyOffsets[entry + 1] - keyStart;
        if (repeatedLater(keyData, keyOffsets, entry, end)) {
          continue; // the last entry of a repeated key wins
        }
        int keyId = keyId(keyData, keyStart, keyLength);
        if (keyId < 0) {
          continue;
        }
        KeyEntries entries = keys.get(keyId);
        boolean isNull = valueNulls != null && valueNulls[entry];
        int valueId =
            isNull
                ? -1
                : entries.values.add(
                    valueData, valueOffsets[entry], valueOffsets[entry + 1] - valueOffsets[entry]);
        entries.add(docCount, valueId);
      }
    }
  }

  /**
   * As {@link #addMaps}, with each entry's key given as an id into a batch dictionary of keys
   * (entry {@code d} spans {@code keyDictionaryData[keyDictionaryOffsets[d] ..
   * keyDictionaryOffsets[d + 1]]}): the shape of a dictionary-encoded Parquet key column. Each
   * distinct key is looked up once per call instead of once per entry, and repeated keys are found
   * by comparing ids rather than bytes. When {@code valueIds} is not null, values are ids too:
   * entry {@code e}'s value is {@code valueData[valueOffsets[valueIds[e]] ..
   * valueOffsets[valueIds[e] + 1]]} (a dictionary-encoded Parquet value column), and each distinct
   * value of an extracted key is hashed once per call instead of once per entry. Ids of entries
   * under keys that are not extracted are never read (they may be -1).
   */
  public void addMapsWithKeyIds(
      int rowCount,
      int[] entryOffsets,
      boolean[] mapNulls,
      byte[] keyDictionaryData,
      int[] keyDictionaryOffsets,
      int keyDictionarySize,
      int[] keyIds,
      byte[] valueData,
      int[] valueOffsets,
      int[] valueIds,
      boolean[] valueNulls) {
    if (keyDictionarySize < 0 || keyDictionaryOffsets.length <= keyDictionarySize) {
      throw new IllegalArgumentException(
          "Cannot use a key dictionary of %d values with %d offsets"
              .formatted(keyDictionarySize, keyDictionaryOffsets.length));
    }
    call++;
    // Batch key id -> tracked key id (-1: not tracked), found on first use so automatic selection
    // meets keys in row order, exactly as addMaps does.
    int[] tracked = new int[keyDictionarySize];
    Arrays.fill(tracked, UNMAPPED);
    int valueDictionarySize = valueIds == null ? 0 : valueOffsets.length - 1;
    for (int row = 0; row < rowCount; row++, docCount++) {
      if (mapNulls != null && mapNulls[row]) {
        continue;
      }
      int end = entryOffsets[row + 1];
      for (int entry = entryOffsets[row]; entry < end; entry++) {
        int keyId = tracked(tracked, keyIds[entry], keyDictionaryData, keyDictionaryOffsets);
        if (keyId < 0
            || trackedLater(
                tracked, keyIds, keyId, entry, end, keyDictionaryData, keyDictionaryOffsets)) {
          continue; // not extracted, or the last entry of a repeated key wins
        }
        KeyEntries entries = keys.get(keyId);
        int valueId;
        if (valueNulls != null && valueNulls[entry]) {
          if (pending.count > 0) {
            pending.flush(keys, valueData); // a key's entries stay in doc order
          }
          valueId = -1;
        } else if (valueIds == null) {
          pending.add(keyId, docCount, valueOffsets[entry], valueOffsets[entry + 1]);
          if (pending.count == PendingValues.BLOCK) {
            pending.flush(keys, valueData);
          }
          continue;
        } else {
          valueId =
              entries.valueOfId(
                  call, valueIds[entry], valueDictionarySize, valueData, valueOffsets);
        }
        entries.add(docCount, valueId);
      }
    }
    if (pending.count > 0) {
      pending.flush(keys, valueData);
    }
  }

  private static final int UNMAPPED = -2;

  /**
   * Plain (not dictionary-encoded) values of extracted keys waiting to be added, in doc order: in
   * blocks, so that the dictionaries' cache misses of a block overlap ({@link
   * io.shelfmark.segment.dictionary.BytesIdTable#slotOf}). A high-cardinality key (a node name of
   * 100,000) has a dictionary far larger than the cache, and adding its values one at a time cost
   * three misses in a row each. Each key's values are still added in doc order, so ids are what
   * one-at-a-time gave.
   */
  private static final class PendingValues {
    static final int BLOCK = 64;
    final int[] keyIds = new int[BLOCK];
    final int[] docs = new int[BLOCK];
    final int[] starts = new int[BLOCK];
    final int[] ends = new int[BLOCK];
    final long[] hashes = new long[BLOCK];
    final long[] slots = new long[BLOCK];
    final int[] valueStarts = new int[BLOCK];
    int count;
    int sink; // keeps the touched reads

    void add(int keyId, int doc, int start, int end) {
      keyIds[count] = keyId;
      docs[count] = doc;
      starts[count] = start;
      ends[count] = end;
      count++;
    }

    void flush(List<KeyEntries> keys, byte[] data) {
      for (int i = 0; i < count; i++) {
        hashes[i] = ValueHash.hashBytes(data, starts[i], ends[i] - starts[i]);
      }
      // The three reads of each lookup, a loop each: each loop's misses overlap.
      for (int i = 0; i < count; i++) {
        slots[i] = keys.get(keyIds[i]).values.strings().slotOf(hashes[i]);
      }
      for (int i = 0; i < count; i++) {
        valueStarts[i] = keys.get(keyIds[i]).values.strings().valueStart(slots[i]);
      }
      int touched = 0;
      for (int i = 0; i < count; i++) {
        touched += keys.get(keyIds[i]).values.strings().firstByte(valueStarts[i]);
      }
      sink += touched;
      for (int i = 0; i < count; i++) {
        KeyEntries entries = keys.get(keyIds[i]);
        entries.add(docs[i], entries.values.add(hashes[i], data, starts[i], ends[i] - starts[i]));
      }
      count = 0;
    }
  }

  private final PendingValues pending = new PendingValues();

  private int tracked(int[] tracked, int batchKeyId, byte[] data, int[] offsets) {
    if (batchKeyId < 0 || batchKeyId >= tracked.length) {
      throw new IllegalArgumentException(
          "Cannot extract map key id %d from a key dictionary of %d values"
              .formatted(batchKeyId, tracked.length));
    }
    int keyId = tracked[batchKeyId];
    if (keyId == UNMAPPED) {
      keyId = keyId(data, offsets[batchKeyId], offsets[batchKeyId + 1] - offsets[batchKeyId]);
      tracked[batchKeyId] = keyId;
    }
    return keyId;
  }

  private boolean trackedLater(
      int[] tracked, int[] keyIds, int keyId, int entry, int end, byte[] data, int[] offsets) {
    for (int later = entry + 1; later < end; later++) {
      if (tracked(tracked, keyIds[later], data, offsets) == keyId) {
        return true;
      }
    }
    return false;
  }

  private static boolean repeatedLater(byte[] keyData, int[] keyOffsets, int entry, int end) {
    int start = keyOffsets[entry];
    int stop = keyOffsets[entry + 1];
    for (int later = entry + 1; later < end; later++) {
      if (Arrays.equals(keyData, start, stop, keyData, keyOffsets[later], keyOffsets[later + 1])) {
        return true;
      }
    }
    return false;
  }

  private int keyId(byte[] keyData, int start, int length) {
    if (selection instanceof MapKeySelection.Listed || keyIds.size() >= MAX_TRACKED_KEYS) {
      return keyIds.find(keyData, start, length);
    }
    int id = keyIds.idOf(keyData, start, length);
    if (id == keys.size()) {
      keys.add(new KeyEntries(new String(keyData, start, length, StandardCharsets.UTF_8)));
    }
    return id;
  }

  /** The number of rows added. */
  public int docCount() {
    return docCount;
  }

  /**
   * The selected keys, sorted: every listed key, or every automatic key present in at least the
   * minimum share of rows. The extractor must not be used afterwards.
   */
  public List<ExtractedKey> seal() {
    List<ExtractedKey> result = new ArrayList<>();
    for (KeyEntries entries : keys) {
      boolean selected =
          switch (selection) {
            case MapKeySelection.Listed listed -> true;
            case MapKeySelection.Auto auto ->
                docCount > 0 && entries.count >= auto.minShare() * docCount;
          };
      if (selected) {
        int[] ids = new int[docCount];
        Arrays.fill(ids, -1);
        for (int i = 0; i < entries.count; i++) {
          ids[entries.docs[i]] = entries.ids[i];
        }
        result.add(new ExtractedKey(entries.key, entries.count, entries.values, ids));
      }
    }
    result.sort(Comparator.comparing(ExtractedKey::key));
    keys.clear();
    return result;
  }

  /**
   * One extracted key.
   *
   * @param key the map key
   * @param presentRows the rows whose map holds the key
   * @param values the key's values, with provisional ids
   * @param provisionalIds per doc, the provisional id of its value, -1 when null or absent
   */
  public record ExtractedKey(
      String key, int presentRows, DictionaryBuilder values, int[] provisionalIds) {}

  /** One key's entries in doc order. */
  private static final class KeyEntries {
    final String key;
    final DictionaryBuilder values = new DictionaryBuilder(ValueType.STRING);
    int[] docs = new int[16];
    int[] ids = new int[16];
    int count;
    int[] idsOfValueIds = new int[0]; // batch value id -> provisional id, UNMAPPED when not seen
    int idsOfValueIdsCall = -1;

    KeyEntries(String key) {
      this.key = key;
    }

    /** The provisional id of batch value id {@code valueId}, hashed once per call. */
    int valueOfId(int call, int valueId, int dictionarySize, byte[] data, int[] offsets) {
      if (idsOfValueIdsCall != call) {
        if (idsOfValueIds.length < dictionarySize) {
          idsOfValueIds = new int[dictionarySize];
        }
        Arrays.fill(idsOfValueIds, 0, dictionarySize, UNMAPPED);
        idsOfValueIdsCall = call;
      }
      if (valueId < 0 || valueId >= dictionarySize) {
        throw new IllegalArgumentException(
            "Cannot extract value id %d of key %s from a value dictionary of %d values"
                .formatted(valueId, key, dictionarySize));
      }
      int id = idsOfValueIds[valueId];
      if (id == UNMAPPED) {
        id = values.add(data, offsets[valueId], offsets[valueId + 1] - offsets[valueId]);
        idsOfValueIds[valueId] = id;
      }
      return id;
    }

    void add(int doc, int id) {
      if (count == docs.length) {
        docs = Arrays.copyOf(docs, count * 2);
        ids = Arrays.copyOf(ids, count * 2);
      }
      docs[count] = doc;
      ids[count] = id;
      count++;
    }
  }
}
