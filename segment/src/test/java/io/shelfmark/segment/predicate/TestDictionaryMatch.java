package io.shelfmark.segment.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.dictionary.Dictionaries;
import io.shelfmark.segment.dictionary.DictionaryBuilder;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.ObjIntConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@link DictionaryMatch} and {@link LongIntervals} over IN lists: the ids equal a brute-force
 * comparison of every entry with every value, for random lists of every type and length (both ways
 * are exercised), and the work done is bounded — a dictionary that counts its lookups shows a
 * 10,000-value list matched in one walk, not 10,000 searches.
 */
class TestDictionaryMatch {
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());

  @Test
  void idsEqualBruteForceForEveryTypeAndLength() throws CorruptSegmentException {
    SplittableRandom random = new SplittableRandom(SEED);
    for (int round = 0; round < 200; round++) {
      ValueType type = ValueType.values()[random.nextInt(ValueType.values().length)];
      int entries = 1 + random.nextInt(random.nextBoolean() ? 50 : 3_000);
      List<Value> dictionaryValues = new ArrayList<>();
      for (int i = 0; i < entries; i++) {
        dictionaryValues.add(randomValue(type, random));
      }
      Dictionary dictionary = dictionary(type, dictionaryValues);
      int listSize = 1 + random.nextInt(random.nextBoolean() ? 8 : 6_000);
      List<Value> list = new ArrayList<>();
      for (int i = 0; i < listSize; i++) {
        list.add(
            random.nextInt(3) == 0
                ? dictionary.value(random.nextInt(dictionary.size()))
                : randomValue(type, random));
      }
      In in = new In("c", list);
      List<Integer> expected = new ArrayList<>();
      for (int id = 0; id < dictionary.size(); id++) {
        if (in.values().contains(dictionary.value(id))) {
          expected.add(id);
        }
      }
      int[] ids = DictionaryMatch.ids(dictionary, in.values());
      assertThat(ids)
          .as(
              "seed %d round %d: %s over %d entries, %d values",
              SEED, round, type, entries, listSize)
          .containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
      List<Integer> fromIntervals = new ArrayList<>();
      for (LongIntervals.Interval interval : LongIntervals.of(in, type, Optional.of(dictionary))) {
        for (long id = interval.low(); id <= interval.high(); id++) {
          fromIntervals.add((int) id);
        }
      }
      assertThat(fromIntervals).as("seed %d round %d", SEED, round).isEqualTo(expected);
    }
  }

  @Test
  void aLongListWalksTheDictionaryOnce() throws CorruptSegmentException {
    List<Value> entries = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      entries.add(Value.of("node-" + i));
    }
    CountingDictionary dictionary = new CountingDictionary(dictionary(ValueType.STRING, entries));
    List<Value> list = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      list.add(Value.of("node-" + (i * 7)));
    }
    int[] ids = DictionaryMatch.ids(dictionary, new In("m['node']", list).values());
    // node-0, node-7, ... node-2996: 429 of the 3,000 entries.
    assertThat(ids).hasSize(429);
    assertThat(dictionary.searches).as("dictionary searches").isZero();
    assertThat(dictionary.entriesRead).as("entries read by the walk").isEqualTo(3_000);
  }

  @Test
  void aShortListSearchesOncePerValue() throws CorruptSegmentException {
    List<Value> entries = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      entries.add(Value.of((long) i * 3));
    }
    CountingDictionary dictionary = new CountingDictionary(dictionary(ValueType.LONG, entries));
    List<Value> list = List.of(Value.of(3L), Value.of(4L), Value.of(299_997L), Value.of(-1L));
    int[] ids = DictionaryMatch.ids(dictionary, new In("c", list).values());
    assertThat(ids).containsExactly(1, 99_999);
    assertThat(dictionary.searches).isEqualTo(4);
    assertThat(dictionary.entriesRead).isZero();
  }

  @Test
  void adjacentIdsBecomeOneInterval() throws CorruptSegmentException {
    List<Value> entries = new ArrayList<>();
    for (long i = 0; i < 10; i++) {
      entries.add(Value.of(i * 10));
    }
    Dictionary dictionary = dictionary(ValueType.LONG, entries);
    In in = new In("c", List.of(Value.of(90L), Value.of(20L), Value.of(30L), Value.of(40L)));
    assertThat(LongIntervals.of(in, ValueType.LONG, Optional.of(dictionary)))
        .containsExactly(new LongIntervals.Interval(2, 4), new LongIntervals.Interval(9, 9));
    // Without a dictionary the values are the domain: 5, 6, 7 merge, Long.MAX_VALUE stays alone.
    In plain =
        new In(
            "c",
            List.of(
                Value.of(7L), Value.of(5L), Value.of(6L), Value.of(Long.MAX_VALUE), Value.of(6L)));
    assertThat(plain.values()).hasSize(4);
    assertThat(LongIntervals.of(plain, ValueType.LONG, Optional.empty()))
        .containsExactly(
            new LongIntervals.Interval(5, 7),
            new LongIntervals.Interval(Long.MAX_VALUE, Long.MAX_VALUE));
  }

  @Test
  void theWalkIsChosenWhenItCostsLess() {
    assertThat(DictionaryMatch.walks(3_000, 10)).isFalse();
    assertThat(DictionaryMatch.walks(3_000, 10_000)).isTrue();
    assertThat(DictionaryMatch.walks(1_000_000, 10_000)).isFalse();
    assertThat(DictionaryMatch.walks(4, 4)).isTrue();
  }

  private static Value randomValue(ValueType type, SplittableRandom random) {
    return switch (type) {
      case LONG -> Value.of((long) random.nextInt(-2_000, 2_000));
      case DOUBLE ->
          switch (random.nextInt(12)) {
            case 0 -> Value.of(-0.0);
            case 1 -> Value.of(Double.NaN);
            case 2 -> Value.of(Double.NEGATIVE_INFINITY);
            default -> Value.of(random.nextInt(-500, 500) / 4.0);
          };
      case STRING ->
          Value.of(
              List.of("", "a", "tk_", "é", "\uD83D\uDE00").get(random.nextInt(5))
                  + random.nextInt(2_000));
    };
  }

  private static Dictionary dictionary(ValueType type, List<Value> values)
      throws CorruptSegmentException {
    DictionaryBuilder builder = new DictionaryBuilder(type);
    for (Value value : new TreeSet<>(values)) {
      switch (value) {
        case Value.LongValue(long v) -> builder.add(v);
        case Value.DoubleValue(double v) -> builder.add(v);
        case Value.StringValue s -> {
          byte[] utf8 = s.utf8();
          builder.add(utf8, 0, utf8.length);
        }
      }
    }
    byte[] part = builder.seal().part();
    return Dictionaries.read(new PartReader("s", "dictionary[c]", 0, ByteBuffer.wrap(part)), type);
  }

  /** Counts the searches ({@code indexOf}) and the entries read in id order. */
  private static final class CountingDictionary implements Dictionary {
    private final Dictionary delegate;
    int searches;
    int entriesRead;

    CountingDictionary(Dictionary delegate) {
      this.delegate = delegate;
    }

    @Override
    public ValueType type() {
      return delegate.type();
    }

    @Override
    public int size() {
      return delegate.size();
    }

    @Override
    public int indexOf(Value value) {
      searches++;
      return delegate.indexOf(value);
    }

    @Override
    public Value value(int id) {
      entriesRead++;
      return delegate.value(id);
    }

    @Override
    public long longValue(int id) {
      entriesRead++;
      return delegate.longValue(id);
    }

    @Override
    public double doubleValue(int id) {
      entriesRead++;
      return delegate.doubleValue(id);
    }

    @Override
    public byte[] bytes(int id) {
      entriesRead++;
      return delegate.bytes(id);
    }

    @Override
    public void forEachBytes(ObjIntConsumer<byte[]> action) {
      delegate.forEachBytes(
          (bytes, id) -> {
            entriesRead++;
            action.accept(bytes, id);
          });
    }

    @Override
    public long sizeInBytes() {
      return delegate.sizeInBytes();
    }
  }
}
