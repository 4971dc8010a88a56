package io.shelfmark.storage.coalesce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.storage.coalesce.CoalescedRead.Slice;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TestRangeCoalescer {
  private static final long KIB = 1 << 10;
  private static final long MIB = 1 << 20;

  /** Small numbers keep the cases readable: merge gaps up to 10 bytes, reads up to 100. */
  private final RangeCoalescer coalescer = new RangeCoalescer(10, 100);

  @Test
  void adjacentRangesMergeIntoOneRead() {
    CoalescedPlan plan = coalescer.coalesce(List.of(range(0, 10), range(10, 10), range(20, 5)));
    assertThat(plan.reads()).containsExactly(range(0, 25));
    assertThat(plan.requests())
        .extracting(CoalescedRead::slices)
        .containsExactly(
            List.of(new Slice(0, 0, 10)),
            List.of(new Slice(0, 10, 10)),
            List.of(new Slice(0, 20, 5)));
  }

  @Test
  void overlappingAndDuplicateRangesAreReadOnce() {
    CoalescedPlan plan =
        coalescer.coalesce(List.of(range(0, 30), range(20, 20), range(0, 30), range(5, 5)));
    assertThat(plan.reads()).containsExactly(range(0, 40));
    assertThat(plan.bytesRead()).isEqualTo(40);
    assertThat(plan.bytesRequested()).isEqualTo(85);
    assertThat(plan.requests().get(1).slices()).containsExactly(new Slice(0, 20, 20));
    assertThat(plan.requests().get(2).slices()).containsExactly(new Slice(0, 0, 30));
    assertThat(plan.requests().get(3).slices()).containsExactly(new Slice(0, 5, 5));
  }

  @Test
  void gapAtTheThresholdMergesAndOneMoreByteSplits() {
    // Gap of exactly maxMergeDistance (10): read through it.
    assertThat(coalescer.coalesce(List.of(range(0, 10), range(20, 10))).reads())
        .containsExactly(range(0, 30));
    // Gap of 9: read through it.
    assertThat(coalescer.coalesce(List.of(range(0, 10), range(19, 10))).reads())
        .containsExactly(range(0, 29));
    // Gap of 11: two reads, the gap is not read.
    CoalescedPlan plan = coalescer.coalesce(List.of(range(0, 10), range(21, 10)));
    assertThat(plan.reads()).containsExactly(range(0, 10), range(21, 10));
    assertThat(plan.requests().get(1).slices()).containsExactly(new Slice(1, 0, 10));
  }

  @Test
  void mergingStopsAtTheMaximumBufferSize() {
    // 0-60 and 62-102 would make a 102-byte read: over 100, so a second read starts at 62.
    CoalescedPlan plan = coalescer.coalesce(List.of(range(0, 60), range(62, 40)));
    assertThat(plan.reads()).containsExactly(range(0, 60), range(62, 40));
    // 0-60 and 62-100 fit exactly.
    assertThat(coalescer.coalesce(List.of(range(0, 60), range(62, 38))).reads())
        .containsExactly(range(0, 100));
  }

  @Test
  void hugeRangeIsSplitIntoMaximumSizedReads() {
    CoalescedPlan plan = coalescer.coalesce(List.of(range(1000, 250)));
    assertThat(plan.reads()).containsExactly(range(1000, 100), range(1100, 100), range(1200, 50));
    assertThat(plan.requests().getFirst().slices())
        .containsExactly(new Slice(0, 0, 100), new Slice(1, 0, 100), new Slice(2, 0, 50));
  }

  @Test
  void tailOfASplitRangeAbsorbsItsNeighbours() {
    CoalescedPlan plan = coalescer.coalesce(List.of(range(0, 130), range(135, 5), range(500, 1)));
    assertThat(plan.reads()).containsExactly(range(0, 100), range(100, 40), range(500, 1));
    assertThat(plan.requests().get(1).slices()).containsExactly(new Slice(1, 35, 5));
  }

  @Test
  void overlapRunLongerThanTheMaximumSplitsTheRangeThatCrossesTheCut() {
    // [0, 60) and [50, 150) touch: one run of 150 bytes, cut at 100.
    CoalescedPlan plan = coalescer.coalesce(List.of(range(0, 60), range(50, 100)));
    assertThat(plan.reads()).containsExactly(range(0, 100), range(100, 50));
    assertThat(plan.requests().get(0).slices()).containsExactly(new Slice(0, 0, 60));
    assertThat(plan.requests().get(1).slices())
        .containsExactly(new Slice(0, 50, 50), new Slice(1, 0, 50));
  }

  @Test
  void unsortedInputIsMappedInTheCallersOrder() {
    CoalescedPlan plan = coalescer.coalesce(List.of(range(500, 5), range(0, 5), range(250, 5)));
    assertThat(plan.reads()).containsExactly(range(0, 5), range(250, 5), range(500, 5));
    assertThat(plan.requests())
        .extracting(CoalescedRead::requested)
        .containsExactly(range(500, 5), range(0, 5), range(250, 5));
    assertThat(plan.requests().get(0).slices()).containsExactly(new Slice(2, 0, 5));
  }

  @Test
  void emptyInputAndEmptyRangesReadNothing() {
    assertThat(coalescer.coalesce(List.of()).reads()).isEmpty();
    CoalescedPlan plan = coalescer.coalesce(List.of(range(40, 0), range(0, 10)));
    assertThat(plan.reads()).containsExactly(range(0, 10));
    assertThat(plan.requests().get(0).slices()).isEmpty();
    assertThat(plan.requests().get(0).bytes(List.of(new byte[10])).remaining()).isZero();
  }

  @Test
  void bytesAreAViewForOneSliceAndACopyAcrossReads() {
    CoalescedPlan plan = coalescer.coalesce(List.of(range(0, 150), range(20, 5)));
    byte[] object = sequence(150);
    List<byte[]> reads = readAll(plan, object);

    ByteBuffer small = plan.requests().get(1).bytes(reads);
    assertThat(small.hasArray()).isTrue();
    assertThat(small.array()).isSameAs(reads.get(0));
    assertThat(toArray(small)).isEqualTo(copy(object, 20, 5));

    ByteBuffer split = plan.requests().get(0).bytes(reads);
    assertThat(toArray(split)).isEqualTo(object);
  }

  @Test
  void bytesRejectReadsThatDoNotMatchThePlan() {
    CoalescedPlan plan = coalescer.coalesce(List.of(range(0, 50), range(200, 50)));
    CoalescedRead second = plan.requests().get(1);
    assertThatThrownBy(() -> second.bytes(List.of(new byte[50])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot slice read 1: only 1 reads given");
    assertThatThrownBy(() -> second.bytes(List.of(new byte[50], new byte[20])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot slice read 1: it holds 20 bytes but the slice ends at 50");
  }

  @Test
  void defaultsMergeAMebibyteGapAndReadAtMostEightMebibytes() {
    RangeCoalescer defaults = RangeCoalescer.defaults();
    assertThat(defaults.maxMergeDistance()).isEqualTo(MIB);
    assertThat(defaults.maxBufferSize()).isEqualTo(8 * MIB);
    CoalescedPlan plan =
        defaults.coalesce(
            List.of(range(0, 100 * KIB), range(600 * KIB, 100 * KIB), range(5 * MIB, 100 * KIB)));
    assertThat(plan.reads()).containsExactly(range(0, 700 * KIB), range(5 * MIB, 100 * KIB));
    assertThat(defaults.coalesce(List.of(range(0, 20 * MIB))).reads())
        .containsExactly(range(0, 8 * MIB), range(8 * MIB, 8 * MIB), range(16 * MIB, 4 * MIB));
  }

  @Test
  void invalidSettingsAreRejected() {
    assertThatThrownBy(() -> new RangeCoalescer(-1, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use max-merge-distance: -1 (expected 0 or more bytes)");
    assertThatThrownBy(() -> new RangeCoalescer(0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use max-buffer-size: 0 (expected 1 to 2147483639 bytes)");
    assertThatThrownBy(() -> new RangeCoalescer(0, 1L << 31))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use max-buffer-size: 2147483648 (expected 1 to 2147483639 bytes)");
    List<ByteRange> withNull = new ArrayList<>();
    withNull.add(null);
    assertThatThrownBy(() -> coalescer.coalesce(withNull))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("requested range is null");
  }

  /**
   * Random plans checked against the guarantees in RangeCoalescer's javadoc, and every requested
   * range's bytes rebuilt from the reads compared with the object itself.
   */
  @Test
  void randomPlansKeepEveryGuarantee() {
    Random random = new Random(20_261_121);
    byte[] object = sequence(5000);
    for (int round = 0; round < 1000; round++) {
      long distance = random.nextInt(40);
      long buffer = 1 + random.nextInt(300);
      RangeCoalescer subject = new RangeCoalescer(distance, buffer);
      List<ByteRange> requested = new ArrayList<>();
      int count = random.nextInt(12);
      for (int i = 0; i < count; i++) {
        long offset = random.nextInt(4000);
        long length =
            random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(random.nextBoolean() ? 30 : 900);
        requested.add(range(offset, Math.min(length, object.length - offset)));
      }

      CoalescedPlan plan = subject.coalesce(requested);

      // Plain checks in the byte loops (AssertJ per byte is slow); the message says what broke.
      String context =
          "round " + round + ": " + subject + " on " + requested + " -> " + plan.reads();
      boolean[] requestedByte = new boolean[object.length];
      for (ByteRange range : requested) {
        for (long b = range.offset(); b < range.end(); b++) {
          requestedByte[(int) b] = true;
        }
      }
      int[] readsCovering = new int[object.length];
      ByteRange previous = null;
      for (ByteRange read : plan.reads()) {
        if (read.length() < 1 || read.length() > buffer) {
          throw broken(context, "read size of " + read);
        }
        if (previous != null && read.offset() < previous.end()) {
          throw broken(context, "order of " + read);
        }
        // A read starts and ends on requested bytes: gaps are only ever read between them.
        if (!requestedByte[(int) read.offset()]) {
          throw broken(context, "start of " + read);
        }
        if (!requestedByte[(int) read.end() - 1]) {
          throw broken(context, "end of " + read);
        }
        int gap = 0;
        for (long b = read.offset(); b < read.end(); b++) {
          readsCovering[(int) b]++;
          gap = requestedByte[(int) b] ? 0 : gap + 1;
          if (gap > distance) {
            throw broken(context, "gap before byte " + b);
          }
        }
        previous = read;
      }
      for (int b = 0; b < object.length; b++) {
        if (requestedByte[b] && readsCovering[b] != 1) {
          throw broken(context, "reads covering byte " + b);
        }
      }
      List<byte[]> reads = readAll(plan, object);
      if (plan.requests().size() != requested.size()) {
        throw broken(context, "one mapping per request");
      }
      for (int i = 0; i < requested.size(); i++) {
        ByteRange range = requested.get(i);
        CoalescedRead read = plan.requests().get(i);
        if (!read.requested().equals(range)) {
          throw broken(context, "mapping order at " + i);
        }
        if (!Arrays.equals(
            toArray(read.bytes(reads)), copy(object, (int) range.offset(), (int) range.length()))) {
          throw broken(context, "bytes of request " + range);
        }
      }
    }
  }

  private static AssertionError broken(String context, String what) {
    return new AssertionError("Broken guarantee, " + what + ", in " + context);
  }

  private static ByteRange range(long offset, long length) {
    return new ByteRange(offset, length);
  }

  private static List<byte[]> readAll(CoalescedPlan plan, byte[] object) {
    List<byte[]> reads = new ArrayList<>();
    for (ByteRange read : plan.reads()) {
      reads.add(copy(object, (int) read.offset(), (int) read.length()));
    }
    return reads;
  }

  private static byte[] sequence(int size) {
    byte[] bytes = new byte[size];
    for (int i = 0; i < size; i++) {
      bytes[i] = (byte) (i * 31 + (i >> 8));
    }
    return bytes;
  }

  private static byte[] copy(byte[] bytes, int offset, int length) {
    byte[] copy = new byte[length];
    System.arraycopy(bytes, offset, copy, 0, length);
    return copy;
  }

  private static byte[] toArray(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
