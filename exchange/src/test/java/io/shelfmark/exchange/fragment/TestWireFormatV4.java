package io.shelfmark.exchange.fragment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.exchange.profile.FileAnswer;
import io.shelfmark.exchange.profile.FileProfile;
import io.shelfmark.exchange.profile.StarTreeProfile;
import io.shelfmark.exchange.profile.TermProfile;
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
 * Version 4 of the fragment response (a file answered from a star-tree with its time edge, fetch
 * and decode apart, the page cache's hits per tier): the golden file under {@code
 * src/test/resources/golden/v4/} decodes field by field and the encoder still writes it byte for
 * byte; profiles without anything new are still written as version 2, so an EXPLAIN over a
 * tree-less table reads on a broker of the release before.
 *
 * <p>To write it again (only with a new version directory): run this test with {@code
 * -Dshelfmark.golden.write.v4=<dir>}.
 */
class TestWireFormatV4 {
  static FileProfile edge() {
    return new FileProfile(
        "s3://lake/obs/metrics/data/part-00000.parquet",
        true,
        FileAnswer.PARQUET_PAGES,
        List.of(
            new TermProfile(
                "(metric = 'cpu')", List.of("inverted[metric]"), TermProfile.Check.NONE),
            new TermProfile(
                "(logical_timestamp BETWEEN 1754229600000 AND 1754229600499)",
                List.of("sorted[logical_timestamp]"),
                TermProfile.Check.NONE)),
        List.of(),
        List.of("sum_rollup"),
        1_900,
        7,
        0,
        2,
        1,
        2,
        8_192,
        true,
        7,
        2,
        1,
        8_300,
        120_000,
        310_000,
        15_000,
        250_000,
        60_000,
        Optional.empty());
  }

  static FileProfile fromTree() {
    return new FileProfile(
        "s3://lake/obs/metrics/data/part-00000.parquet",
        true,
        FileAnswer.STAR_TREE,
        List.of(new TermProfile("(metric = 'cpu')", List.of("star-tree"), TermProfile.Check.NONE)),
        List.of("sum(sum_rollup) (star-tree metric)"),
        List.of(),
        1_900,
        130,
        0,
        2,
        1,
        2,
        8_192,
        true,
        130,
        2,
        1,
        8_300,
        620_000,
        310_000,
        15_000,
        250_000,
        60_000,
        Optional.of(
            new StarTreeProfile(
                List.of("metric", "dateTrunc('second', logical_timestamp)"),
                41,
                123,
                List.of(edge()))));
  }

  static FragmentResponse response() {
    FragmentResponse v1 = TestWireFormat.response();
    return new FragmentResponse(
        TestWireFormat.rows(),
        v1.storageRequests(),
        v1.storageBytesRead(),
        v1.cacheHits(),
        v1.cacheMisses(),
        List.of(fromTree()),
        2,
        11,
        6);
  }

  @Test
  void decodesTheV4ResponseWithItsStarTreeProfile() throws IOException {
    byte[] bytes = golden();
    assertThat(version(bytes)).isEqualTo((short) 4);
    FragmentResponse decoded = FragmentResponse.decode(bytes);
    assertThat(decoded.storageRetries()).isEqualTo(2);
    assertThat(decoded.memoryHits()).isEqualTo(11);
    assertThat(decoded.diskHits()).isEqualTo(6);
    FileProfile file = decoded.profiles().getFirst();
    assertThat(file.answer()).isEqualTo(FileAnswer.STAR_TREE);
    assertThat(file.fetchNanos()).isEqualTo(250_000);
    assertThat(file.decodeNanos()).isEqualTo(60_000);
    StarTreeProfile tree = file.starTree().orElseThrow();
    assertThat(tree.recordsVisited()).isEqualTo(41);
    assertThat(tree.rows()).isEqualTo(123);
    assertThat(tree.dimensions())
        .containsExactly("metric", "dateTrunc('second', logical_timestamp)");
    assertThat(tree.edges()).containsExactly(edge());
    assertThat(decoded).isEqualTo(response());
    // The frame's encoder is unchanged, but the partial result inside is written in its own
    // newer version since (version 4 of PartialResultCodec, issue 25): the bytes differ there
    // only, so the re-encoding must decode to the same response.
    assertThat(FragmentResponse.decode(response().encode())).isEqualTo(decoded);
  }

  @Test
  void writesTheLowestVersionThatHoldsTheResponse() {
    // Profiles of version 2's fields only (EXPLAIN of a tree-less file): still version 2.
    assertThat(version(TestWireFormatV2.response().encode())).isEqualTo((short) 2);
    FragmentResponse v2 = TestWireFormatV2.response();
    FragmentResponse withTiers =
        new FragmentResponse(
            v2.partial(),
            v2.storageRequests(),
            v2.storageBytesRead(),
            v2.cacheHits(),
            v2.cacheMisses(),
            v2.profiles(),
            0,
            3,
            1);
    assertThat(version(withTiers.encode())).isEqualTo((short) 4);
    assertThat(FragmentResponse.decode(withTiers.encode())).isEqualTo(withTiers);
    // Tiers without profiles (a plain query) are not carried: version 1, read back as unknown.
    FragmentResponse plain = TestWireFormat.response();
    FragmentResponse plainWithTiers =
        new FragmentResponse(
            plain.partial(),
            plain.storageRequests(),
            plain.storageBytesRead(),
            plain.cacheHits(),
            plain.cacheMisses(),
            List.of(),
            0,
            3,
            1);
    assertThat(version(plainWithTiers.encode())).isEqualTo((short) 1);
    assertThat(FragmentResponse.decode(plainWithTiers.encode()).memoryHits()).isEqualTo(-1);
  }

  @Test
  void refusesAStarTreeInsideAnEdge() {
    FileProfile nested =
        new FileProfile(
            fromTree().path(),
            true,
            FileAnswer.STAR_TREE,
            List.of(),
            List.of(),
            List.of(),
            1,
            1,
            0,
            0,
            0,
            0,
            0,
            true,
            1,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            Optional.of(new StarTreeProfile(List.of("metric"), 1, 1, List.of(fromTree()))));
    FragmentResponse response =
        new FragmentResponse(TestWireFormat.rows(), 0, 0, 0, 0, List.of(nested), 0, 0, 0);
    byte[] bytes = response.encode();
    assertThatThrownBy(() -> FragmentResponse.decode(bytes))
        .isInstanceOf(WireFormatException.class)
        .hasMessage(
            "Cannot read a file profile: an edge of a star-tree answer holds a star-tree answer"
                + " (the bytes are corrupt)");
  }

  private static short version(byte[] bytes) {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getShort(4);
  }

  private static byte[] golden() throws IOException {
    String write = System.getProperty("shelfmark.golden.write.v4");
    if (write != null) {
      Path dir = Path.of(write);
      Files.createDirectories(dir);
      Files.write(dir.resolve("response.bin"), response().encode());
    }
    try (InputStream in = TestWireFormatV4.class.getResourceAsStream("/golden/v4/response.bin")) {
      if (in == null) {
        throw new IOException("Cannot find golden file golden/v4/response.bin on the class path");
      }
      return in.readAllBytes();
    }
  }
}
