package io.shelfmark.parquet.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.storage.coalesce.ByteRange;
import io.shelfmark.storage.local.LocalObjectStore;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.RangeBuffers;
import io.shelfmark.storage.spi.StorageException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RangeFetch} hands out a range as soon as the store reports its bytes, while the rest of
 * the GET is still on the way. The file is real; the store in front of it delivers each GET's first
 * half, then holds the rest until the test lets it go (or fails it), which is the streaming the S3
 * store reports.
 */
class TestRangeFetch {
  private static final int SIZE = 4_000;
  private static final ByteRange FIRST_PAGE = new ByteRange(100, 1_000);
  private static final ByteRange LAST_PAGE = new ByteRange(2_500, 1_000);

  @TempDir Path directory;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final CountDownLatch rest = new CountDownLatch(1);
  // Holds the store's call after its last report, as a slow return from the SDK would.
  private final CountDownLatch returned = new CountDownLatch(1);
  private final ReadCounters counters = new ReadCounters();
  private byte[] content;
  private Location file;

  @BeforeEach
  void writeFile() throws IOException {
    content = new byte[SIZE];
    new Random(3).nextBytes(content);
    Path path = directory.resolve("object.bin");
    Files.write(path, content);
    file = Location.parse(path.toAbsolutePath().toString());
  }

  @AfterEach
  void stop() {
    rest.countDown();
    returned.countDown();
    threads.shutdownNow();
  }

  @Test
  void aRangeIsHandedOutOnceItsBytesArriveBeforeItsReadEnds() throws Exception {
    try (RangeFetch fetch = fetch(halfThenRest(false))) {
      fetch.start();

      // Served from the first half while the GET still holds its second half.
      assertThat(fetch.await(FIRST_PAGE)).isEqualTo(expected(FIRST_PAGE));
      assertThat(rest.getCount()).isOne();

      Future<ByteBuffer> last = threads.submit(() -> fetch.await(LAST_PAGE));
      Thread.sleep(100);
      assertThat(last).isNotDone();
      rest.countDown();
      assertThat(last.get(10, TimeUnit.SECONDS)).isEqualTo(expected(LAST_PAGE));
      // Every byte is out while the store's call has not returned: the request is counted already.
      assertThat(returned.getCount()).isOne();
      assertThat(counters.snapshot(2, 0, 0).requests()).isEqualTo(1);
      assertThat(counters.snapshot(2, 0, 0).bytesRead()).isEqualTo(SIZE);
    }
  }

  @Test
  void aReadFailingAfterItsFirstBytesFailsOnlyTheRangesItDidNotDeliver() throws Exception {
    try (RangeFetch fetch = fetch(halfThenRest(true))) {
      fetch.start();

      assertThat(fetch.await(FIRST_PAGE)).isEqualTo(expected(FIRST_PAGE));
      rest.countDown();
      assertThatThrownBy(() -> fetch.await(LAST_PAGE))
          .isInstanceOf(StorageException.class)
          .hasMessage("Cannot read " + file + ": the connection broke after 2000 of 4000 bytes");
    }
  }

  private RangeFetch fetch(ObjectStore store) {
    return new RangeFetch(
        store,
        file,
        threads,
        counters,
        Long.MAX_VALUE,
        List.of(new ByteRange(0, SIZE)),
        List.of(FIRST_PAGE, LAST_PAGE));
  }

  @Test
  void eachRangeArrivesInAnArrayOfItsOwn() throws Exception {
    ByteRange middle = new ByteRange(1_500, 500);
    // Overlapping ranges (as a page asked for twice in part would be) are put together by a copy.
    ByteRange overlapping = new ByteRange(1_800, 400);
    List<ByteRange> uses = List.of(FIRST_PAGE, middle, overlapping, LAST_PAGE);
    try (RangeFetch fetch =
        new RangeFetch(
            LocalObjectStore.unconfined(),
            file,
            threads,
            counters,
            Long.MAX_VALUE,
            List.of(new ByteRange(0, SIZE)),
            uses)) {
      fetch.start();
      for (ByteRange use : List.of(FIRST_PAGE, LAST_PAGE, middle, overlapping)) {
        ByteBuffer bytes = fetch.await(use);
        assertThat(bytes).isEqualTo(expected(use));
        if (use != middle && use != overlapping) {
          // Not a view of a 4,000-byte body: the range's own array, handed out without a copy.
          assertThat(bytes.array()).hasSize((int) use.length());
        }
      }
    }
  }

  @Test
  void bytesBetweenRangesGoToSmallArrays() {
    int mib = 1 << 20;
    ByteRange first = new ByteRange(0, 100_000);
    ByteRange large = new ByteRange(400_000, 300_000);
    ByteRange last = new ByteRange(900_000, mib - 900_000);

    int[] lengths = RangeFetch.pieceLengths(new ByteRange(0, mib), List.of(last, first, large));

    int gap = RangeFetch.MAX_GAP_PIECE;
    assertThat(lengths)
        .containsExactly(100_000, gap, 300_000 - gap, 300_000, 200_000, mib - 900_000);
    // A range larger than a gap piece stays whole: its reader needs its bytes together.
    assertThat(RangeFetch.pieceLengths(new ByteRange(0, mib), List.of(new ByteRange(0, mib))))
        .containsExactly(mib);
  }

  private ByteBuffer expected(ByteRange range) {
    return ByteBuffer.wrap(content, (int) range.offset(), (int) range.length()).slice();
  }

  /**
   * The local store, except that a ranged read with progress delivers its first half, waits for
   * {@link #rest}, then delivers the rest or (with {@code fail}) breaks off.
   */
  private ObjectStore halfThenRest(boolean fail) {
    LocalObjectStore local = LocalObjectStore.unconfined();
    return (ObjectStore)
        Proxy.newProxyInstance(
            ObjectStore.class.getClassLoader(),
            new Class<?>[] {ObjectStore.class},
            (proxy, method, args) -> {
              if (!method.getName().equals("readRange") || args.length != 4) {
                try {
                  return method.invoke(local, args);
                } catch (InvocationTargetException e) {
                  throw e.getCause();
                }
              }
              Location location = (Location) args[0];
              long offset = (long) args[1];
              RangeBuffers into = (RangeBuffers) args[2];
              ObjectStore.RangeProgress progress = (ObjectStore.RangeProgress) args[3];
              int length = into.length();
              byte[] whole = local.readRange(location, offset, length);
              int half = length / 2;
              fill(into, whole, 0, half);
              progress.arrived(half);
              if (!rest.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never let the rest through");
              }
              if (fail) {
                throw new StorageException(
                    "Cannot read %s: the connection broke after %d of %d bytes"
                        .formatted(location, half, length));
              }
              fill(into, whole, half, length);
              progress.arrived(length);
              if (!returned.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never let the read return");
              }
              return null;
            });
  }

  /** Puts bytes {@code [from, to)} of the range into {@code into}, as a store's GET would. */
  private static void fill(RangeBuffers into, byte[] range, int from, int to) throws IOException {
    ByteArrayInputStream in = new ByteArrayInputStream(range, from, to - from);
    for (int at = from; at < to; ) {
      at += into.readFrom(in, at);
    }
  }
}
