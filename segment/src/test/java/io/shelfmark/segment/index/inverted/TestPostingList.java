package io.shelfmark.segment.index.inverted;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.format.PartWriter;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class TestPostingList {
  @Test
  void testComputedBitmapSizeEqualsTheLibrarys() throws Exception {
    SplittableRandom random = new SplittableRandom(53);
    // Cardinalities around the array/bitmap boundary, runs that do and do not pay, one to six
    // containers (offsets are left out below four when runs are present).
    int[] cardinalities = {1, 2, 9, 100, 2047, 4095, 4096, 4097, 6000, 20000};
    for (int containers = 1; containers <= 6; containers++) {
      for (int cardinality : cardinalities) {
        for (int runLength : new int[] {1, 2, 3, 50, 70000}) {
          int[] docs = docs(random, containers, cardinality, runLength);
          RoaringBitmap bitmap = RoaringBitmap.bitmapOf(docs);
          bitmap.runOptimize();
          RoaringBitmap built = PostingList.bitmap(docs, 0, docs.length);
          built.runOptimize();
          assertThat(serialize(built))
              .as("%d containers, %d docs each, runs of %d", containers, cardinality, runLength)
              .isEqualTo(serialize(bitmap));
          assertThat(PostingList.roaringSize(docs, 0, docs.length))
              .as("%d containers, %d docs each, runs of %d", containers, cardinality, runLength)
              .isEqualTo(bitmap.serializedSizeInBytes());
          checkRoundTrip(docs);
        }
      }
    }
  }

  @Test
  void testRoundTripsScatteredDenseAndEmptyLists() throws Exception {
    checkRoundTrip(new int[0]);
    checkRoundTrip(new int[] {7});
    checkRoundTrip(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    checkRoundTrip(new int[] {3, 70_000, 140_000, 1 << 30});
    int[] dense = new int[100_000];
    for (int i = 0; i < dense.length; i++) {
      dense[i] = i * 2;
    }
    checkRoundTrip(dense);
  }

  private static byte[] serialize(RoaringBitmap bitmap) {
    ByteBuffer buffer = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
    bitmap.serialize(buffer);
    return buffer.array();
  }

  private static void checkRoundTrip(int[] docs) throws Exception {
    int[] padded = new int[docs.length + 3];
    System.arraycopy(docs, 0, padded, 2, docs.length);
    PartWriter out = new PartWriter();
    PostingList.write(out, padded, 2, docs.length);
    RoaringBitmap read = PostingList.read(ByteBuffer.wrap(out.toByteArray()));
    assertThat(read.toArray()).as("%d docs", docs.length).containsExactly(docs);
  }

  private static int[] docs(SplittableRandom random, int containers, int cardinality, int run) {
    TreeSet<Integer> docs = new TreeSet<>();
    for (int container = 0; container < containers; container++) {
      int base = (container * 3 + random.nextInt(3)) << 16;
      int added = 0;
      while (added < cardinality) {
        int start = random.nextInt(65536);
        for (int i = 0; i < run && added < cardinality && start + i < 65536; i++) {
          if (docs.add(base + start + i)) {
            added++;
          }
        }
      }
    }
    return docs.stream().mapToInt(Integer::intValue).toArray();
  }
}
