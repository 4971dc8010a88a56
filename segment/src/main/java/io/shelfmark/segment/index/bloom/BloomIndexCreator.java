package io.shelfmark.segment.index.bloom;

import io.shelfmark.segment.encoding.ValueHash;
import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.spi.CreatorContext;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.IndexCreator;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueBatch;
import io.shelfmark.segment.spi.ValueType;
import java.util.Arrays;
import java.util.Optional;

/**
 * Hashes each non-null doc's value, collects a block's hashes, and when the block is full sizes its
 * filter from the block's distinct hashes and sets their bits. For a dictionary column each id's
 * hash is computed once. Memory: one block of hashes plus the filters.
 */
final class BloomIndexCreator implements IndexCreator {
  private final ValueType type;
  private final long[] idHashes;
  private final long[] blockHashes = new long[BloomIndexType.BLOCK_DOCS];
  private int blockFill;
  // The set distinctHashes() fills and clears, kept across blocks.
  private long[] seen = new long[0];
  private int docInBlock;
  private int[] words = new int[1024];
  private int wordCount;
  private int[] blockTable = new int[32];
  private int blocks;

  BloomIndexCreator(CreatorContext context) {
    this.type = context.column().type();
    this.idHashes =
        context
            .dictionaryValueHashes()
            .or(() -> context.dictionary().map(BloomIndexCreator::hashIds))
            .orElse(null);
  }

  private static long[] hashIds(Dictionary dictionary) {
    long[] hashes = new long[dictionary.size()];
    if (dictionary.type() == ValueType.STRING) {
      // The same hash as BloomHashes.of(value): of the UTF-8 bytes, without making Strings.
      dictionary.forEachBytes((utf8, id) -> hashes[id] = ValueHash.hashBytes(utf8, 0, utf8.length));
      return hashes;
    }
    for (int id = 0; id < hashes.length; id++) {
      hashes[id] = BloomHashes.of(dictionary.value(id));
    }
    return hashes;
  }

  @Override
  public void add(ValueBatch batch) {
    int count = batch.count();
    if (idHashes != null) {
      // Dictionary ids (-1 for null): one hash load per doc.
      int[] ids = batch.dictionaryIds();
      for (int i = 0; i < count; i++) {
        int id = ids[i];
        if (id >= 0) {
          blockHashes[blockFill++] = idHashes[id];
        }
        if (++docInBlock == BloomIndexType.BLOCK_DOCS) {
          finishBlock();
        }
      }
      return;
    }
    for (int i = 0; i < count; i++) {
      if (!batch.isNull(i)) {
        blockHashes[blockFill++] = hash(batch, i);
      }
      if (++docInBlock == BloomIndexType.BLOCK_DOCS) {
        finishBlock();
      }
    }
  }

  private long hash(ValueBatch batch, int i) {
    if (idHashes != null) {
      return idHashes[batch.dictionaryIds()[i]];
    }
    return switch (type) {
      case LONG -> ValueHash.hashLong(batch.longs()[i]);
      case DOUBLE -> ValueHash.hashLong(Value.sortableBits(batch.doubles()[i]));
      case STRING -> {
        int[] offsets = batch.binaryOffsets();
        yield ValueHash.hashBytes(batch.binaryData(), offsets[i], offsets[i + 1] - offsets[i]);
      }
    };
  }

  private void finishBlock() {
    int distinct = distinctHashes();
    int buckets =
        distinct == 0 ? 0 : Math.max(1, (distinct * BloomIndexType.BITS_PER_VALUE + 255) / 256);
    if (wordCount + buckets * 8 > words.length) {
      words = Arrays.copyOf(words, Math.max(wordCount + buckets * 8, words.length * 2));
    }
    if (blocks * 2 + 2 > blockTable.length) {
      blockTable = Arrays.copyOf(blockTable, blockTable.length * 2);
    }
    blockTable[blocks * 2] = wordCount;
    blockTable[blocks * 2 + 1] = buckets;
    for (int i = 0; i < distinct; i++) {
      long hash = blockHashes[i];
      int first = wordCount + BloomHashes.bucket(hash, buckets) * 8;
      for (int word = 0; word < 8; word++) {
        words[first + word] |= BloomHashes.bit(hash, word);
      }
    }
    wordCount += buckets * 8;
    blocks++;
    blockFill = 0;
    docInBlock = 0;
  }

  /**
   * Moves the block's distinct hashes to the front of {@code blockHashes} (in no particular order:
   * setting bits does not depend on it) and returns their number, through an open-addressing set
   * rather than a sort. Zero marks a free slot, so a zero hash is tracked apart.
   */
  private int distinctHashes() {
    int capacity = Integer.highestOneBit(Math.max(16, blockFill * 2 - 1)) << 1;
    if (seen.length < capacity) {
      seen = new long[capacity];
    }
    int mask = capacity - 1;
    int distinct = 0;
    boolean zero = false;
    for (int i = 0; i < blockFill; i++) {
      long hash = blockHashes[i];
      if (hash == 0) {
        if (!zero) {
          zero = true;
          blockHashes[distinct++] = 0;
        }
        continue;
      }
      // The hash's bits are already mixed: its low bits pick the slot.
      int slot = (int) hash & mask;
      long held;
      while ((held = seen[slot]) != 0 && held != hash) {
        slot = (slot + 1) & mask;
      }
      if (held == 0) {
        seen[slot] = hash;
        blockHashes[distinct++] = hash;
      }
    }
    Arrays.fill(seen, 0, capacity, 0L);
    return distinct;
  }

  @Override
  public Optional<byte[]> seal() {
    if (docInBlock > 0) {
      finishBlock();
    }
    PartWriter out = new PartWriter(16 + blocks * 8 + wordCount * 4);
    out.putByte(BloomIndexType.HASH_VERSION).putVarInt(BloomIndexType.BLOCK_DOCS).putVarInt(blocks);
    for (int i = 0; i < blocks * 2; i++) {
      out.putInt(blockTable[i]);
    }
    for (int i = 0; i < wordCount; i++) {
      out.putInt(words[i]);
    }
    return Optional.of(out.toByteArray());
  }
}
