package io.shelfmark.segment.dictionary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.predicate.Bound;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.IdRange;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TestDictionaries {
  @Test
  void testStringDictionaryIsSortedByBytesAndFindsEveryValue() throws CorruptSegmentException {
    long seed = 800;
    SplittableRandom random = new SplittableRandom(seed);
    DictionaryBuilder builder = new DictionaryBuilder(ValueType.STRING);
    TreeSet<Value> distinct = new TreeSet<>();
    List<Integer> provisional = new ArrayList<>();
    List<Value> added = new ArrayList<>();
    String[] prefixes = {"", "tk_cache.", "tk_cache.hit.", "é", "\uD83D\uDE00", "zz"};
    for (int i = 0; i < 5000; i++) {
      Value value = Value.of(prefixes[random.nextInt(prefixes.length)] + random.nextInt(700));
      byte[] utf8 = ((Value.StringValue) value).utf8();
      provisional.add(builder.add(utf8, 0, utf8.length));
      added.add(value);
      distinct.add(value);
    }
    DictionaryBuilder.Sealed sealed = builder.seal();
    Dictionary dictionary = read(sealed.part(), ValueType.STRING);
    assertThat(dictionary.size()).isEqualTo(distinct.size());
    List<Value> sorted = new ArrayList<>(distinct);
    for (int id = 0; id < sorted.size(); id++) {
      assertThat(dictionary.value(id)).as("seed %d, id %d", seed, id).isEqualTo(sorted.get(id));
      assertThat(dictionary.indexOf(sorted.get(id))).isEqualTo(id);
    }
    for (int i = 0; i < added.size(); i++) {
      assertThat(dictionary.value(sealed.remap()[provisional.get(i)])).isEqualTo(added.get(i));
    }
    List<Integer> walked = new ArrayList<>();
    dictionary.forEachBytes(
        (utf8, id) -> {
          assertThat(utf8).as("id %d", id).isEqualTo(dictionary.bytes(id));
          walked.add(id);
        });
    assertThat(walked).hasSize(sorted.size()).isSorted().doesNotHaveDuplicates();
    assertThat(dictionary.indexOf(Value.of(""))).isEqualTo(-1);
    assertThat(dictionary.indexOf(Value.of("\uDBFF\uDFFF"))).isEqualTo(-sorted.size() - 1);
    // Front coding: shared prefixes are stored once per block of 16.
    long plain = 0;
    for (Value value : sorted) {
      plain += ((Value.StringValue) value).utf8().length;
    }
    assertThat(dictionary.sizeInBytes()).isLessThan(plain * 2 / 3);
  }

  @Test
  void testDoubleDictionaryMergesSignedZerosAndNaNs() throws CorruptSegmentException {
    DictionaryBuilder builder = new DictionaryBuilder(ValueType.DOUBLE);
    int zero = builder.add(0.0);
    assertThat(builder.add(-0.0)).isEqualTo(zero);
    int nan = builder.add(Double.NaN);
    assertThat(builder.add(Double.longBitsToDouble(0x7ff8000000000001L))).isEqualTo(nan);
    builder.add(Double.NEGATIVE_INFINITY);
    builder.add(-2.5);
    Dictionary dictionary = read(builder.seal().part(), ValueType.DOUBLE);
    assertThat(dictionary.size()).isEqualTo(4);
    assertThat(dictionary.doubleValue(0)).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(dictionary.doubleValue(1)).isEqualTo(-2.5);
    assertThat(dictionary.doubleValue(2)).isEqualTo(0.0);
    assertThat(dictionary.doubleValue(3)).isNaN();
    assertThat(
            dictionary.idRange(
                Optional.of(Bound.exclusive(Value.of(-2.5))),
                Optional.of(Bound.inclusive(Value.of(Double.POSITIVE_INFINITY)))))
        .isEqualTo(new IdRange(2, 2));
    assertThat(
            dictionary.idRange(
                Optional.of(Bound.inclusive(Value.of(1.0))),
                Optional.of(Bound.exclusive(Value.of(Double.NaN)))))
        .isEqualTo(IdRange.EMPTY);
  }

  @Test
  void testLongDictionaryRefusesOtherTypes() throws CorruptSegmentException {
    DictionaryBuilder builder = new DictionaryBuilder(ValueType.LONG);
    builder.add(Long.MIN_VALUE);
    builder.add(Long.MAX_VALUE);
    Dictionary dictionary = read(builder.seal().part(), ValueType.LONG);
    assertThat(dictionary.longValue(1)).isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(() -> dictionary.indexOf(Value.of("184833768")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot look up STRING value '184833768' in a LONG dictionary (cast the literal)");
    assertThatThrownBy(() -> read(builder.seal().part(), ValueType.STRING))
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessageContaining("dictionary of type code 1, but the column holds STRING values");
  }

  @Test
  void testInListsLongerThanTheDictionaryFindTheSameIds() throws CorruptSegmentException {
    DictionaryBuilder builder = new DictionaryBuilder(ValueType.STRING);
    for (String value : List.of("node-a", "node-b", "é", "zz", "")) {
      byte[] utf8 = utf8(value);
      builder.add(utf8, 0, utf8.length);
    }
    Dictionary dictionary = read(builder.seal().part(), ValueType.STRING);
    List<Value> present = List.of(Value.of("zz"), Value.of(""), Value.of("node-b"), Value.of("zz"));
    // Fewer values than entries: one search per value.
    List<io.shelfmark.segment.predicate.LongIntervals.Interval> searched =
        io.shelfmark.segment.predicate.LongIntervals.of(
            new io.shelfmark.segment.predicate.In("c", present),
            ValueType.STRING,
            java.util.Optional.of(dictionary));
    // More values than entries (absent ones added): one walk of the dictionary; the same ids.
    List<Value> many = new ArrayList<>(present);
    for (int i = 0; i < 50; i++) {
      many.add(Value.of("absent-" + i));
    }
    assertThat(
            io.shelfmark.segment.predicate.LongIntervals.of(
                new io.shelfmark.segment.predicate.In("c", many),
                ValueType.STRING,
                java.util.Optional.of(dictionary)))
        .isEqualTo(searched)
        // ids 0 (""), 2 ("node-b") and 3 ("zz"): adjacent ids make one interval.
        .containsExactly(
            new io.shelfmark.segment.predicate.LongIntervals.Interval(0, 0),
            new io.shelfmark.segment.predicate.LongIntervals.Interval(2, 3));
  }

  private static Dictionary read(byte[] part, ValueType type) throws CorruptSegmentException {
    return Dictionaries.read(new PartReader("s", "dictionary[c]", 0, ByteBuffer.wrap(part)), type);
  }

  static byte[] utf8(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }
}
