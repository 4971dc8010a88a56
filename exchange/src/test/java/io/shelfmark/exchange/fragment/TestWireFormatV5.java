package io.shelfmark.exchange.fragment;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.exchange.profile.ChunkReadProfile;
import io.shelfmark.exchange.profile.FileProfile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Version 5 of the fragment response (a file's whole-chunk choice with its cost figures): the
 * golden file under {@code src/test/resources/golden/v5/} decodes field by field and the encoder
 * still writes it byte for byte; profiles without a choice are still written as version 4 or lower,
 * so an EXPLAIN without ANALYZE reads on a broker of the release before.
 *
 * <p>To write it again (only with a new version directory): run this test with {@code
 * -Dshelfmark.golden.write.v5=<dir>}.
 */
class TestWireFormatV5 {
  /** Q4's largest file, read page by page: 3 pages in 3 reads would cost 3 MiB + their bytes. */
  static ChunkReadProfile chunkReads() {
    return new ChunkReadProfile("COST", 1 << 20, 2, 1, 5, 1_530_455, 3, 4_194_304);
  }

  static FileProfile withChoice() {
    FileProfile edge = TestWireFormatV4.edge();
    return new FileProfile(
        edge.path(),
        edge.segment(),
        edge.answer(),
        edge.terms(),
        edge.columnsFromSegment(),
        edge.columnsRead(),
        edge.liveRows(),
        edge.definiteRows(),
        edge.candidateRows(),
        edge.rowGroups(),
        edge.rowGroupsRead(),
        edge.pagesPlanned(),
        edge.lowerBoundBytes(),
        edge.ran(),
        edge.matchedRows(),
        edge.pagesRead(),
        edge.requests(),
        edge.bytesRead(),
        edge.indexNanos(),
        edge.readNanos(),
        edge.aggregateNanos(),
        edge.fetchNanos(),
        edge.decodeNanos(),
        Optional.empty(),
        Optional.of(chunkReads()));
  }

  static FragmentResponse response() {
    FragmentResponse v4 = TestWireFormatV4.response();
    return new FragmentResponse(
        v4.partial(),
        v4.storageRequests(),
        v4.storageBytesRead(),
        v4.cacheHits(),
        v4.cacheMisses(),
        List.of(withChoice()),
        0,
        0,
        3);
  }

  @Test
  void decodesTheV5ResponseWithItsWholeChunkChoice() throws IOException {
    byte[] bytes = golden();
    assertThat(version(bytes)).isEqualTo((short) 5);
    FragmentResponse decoded = FragmentResponse.decode(bytes);
    ChunkReadProfile reads = decoded.profiles().getFirst().chunkReads().orElseThrow();
    assertThat(reads).isEqualTo(chunkReads());
    assertThat(reads.pagesCost()).isEqualTo(5L * (1 << 20) + 1_530_455);
    assertThat(reads.wholeCost()).isEqualTo(3L * (1 << 20) + 4_194_304);
    assertThat(decoded).isEqualTo(response());
    assertThat(response().encode()).isEqualTo(bytes);
  }

  @Test
  void aChoiceInsideAStarTreeEdgeIsCarriedAndProfilesWithoutOneStayVersion4() {
    FileProfile tree = TestWireFormatV4.fromTree();
    FileProfile treeWithChoice =
        new FileProfile(
            tree.path(),
            tree.segment(),
            tree.answer(),
            tree.terms(),
            tree.columnsFromSegment(),
            tree.columnsRead(),
            tree.liveRows(),
            tree.definiteRows(),
            tree.candidateRows(),
            tree.rowGroups(),
            tree.rowGroupsRead(),
            tree.pagesPlanned(),
            tree.lowerBoundBytes(),
            tree.ran(),
            tree.matchedRows(),
            tree.pagesRead(),
            tree.requests(),
            tree.bytesRead(),
            tree.indexNanos(),
            tree.readNanos(),
            tree.aggregateNanos(),
            tree.fetchNanos(),
            tree.decodeNanos(),
            Optional.of(
                new io.shelfmark.exchange.profile.StarTreeProfile(
                    tree.starTree().orElseThrow().dimensions(), 41, 123, List.of(withChoice()))));
    FragmentResponse response =
        new FragmentResponse(TestWireFormat.rows(), 1, 2, 3, 4, List.of(treeWithChoice), 0, 0, 0);
    assertThat(version(response.encode())).isEqualTo((short) 5);
    assertThat(FragmentResponse.decode(response.encode())).isEqualTo(response);
    assertThat(version(TestWireFormatV4.response().encode())).isEqualTo((short) 4);
    assertThat(version(TestWireFormatV2.response().encode())).isEqualTo((short) 2);
  }

  private static short version(byte[] bytes) {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getShort(4);
  }

  private static byte[] golden() throws IOException {
    String write = System.getProperty("shelfmark.golden.write.v5");
    if (write != null) {
      Path dir = Path.of(write);
      Files.createDirectories(dir);
      Files.write(dir.resolve("response.bin"), response().encode());
    }
    try (InputStream in = TestWireFormatV5.class.getResourceAsStream("/golden/v5/response.bin")) {
      if (in == null) {
        throw new IOException("Cannot find golden file golden/v5/response.bin on the class path");
      }
      return in.readAllBytes();
    }
  }
}
