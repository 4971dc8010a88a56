package io.shelfmark.exchange.fragment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.exchange.profile.FileAnswer;
import io.shelfmark.exchange.profile.FileProfile;
import io.shelfmark.exchange.profile.ProfileMode;
import io.shelfmark.exchange.profile.TermProfile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Version 2 of the plan fragment and the fragment response (EXPLAIN's profile mode, the servers'
 * file profiles): the golden files under {@code src/test/resources/golden/v2/} decode field by
 * field and the encoder still writes them byte for byte; a fragment or response without profiles is
 * still written as version 1 (the v1 golden files, {@link TestWireFormat}).
 *
 * <p>To write them again (only with a new version directory): run this test with {@code
 * -Dshelfmark.golden.write.v2=<dir>}.
 */
class TestWireFormatV2 {
  static PlanFragment fragment() {
    PlanFragment v1 = TestWireFormat.fragment();
    return new PlanFragment(
        v1.requestId(),
        v1.sql(),
        v1.database(),
        v1.table(),
        v1.schemaId(),
        v1.snapshotId(),
        v1.files(),
        v1.timeout(),
        v1.lane(),
        v1.limits(),
        v1.options(),
        ProfileMode.ANALYZE);
  }

  static FileProfile profile() {
    return new FileProfile(
        "s3://lake/obs/metrics/data/part-00000.parquet",
        true,
        FileAnswer.PARQUET_PAGES,
        List.of(
            new TermProfile(
                "(metric = 'cpu')", List.of("inverted[metric]"), TermProfile.Check.NONE),
            new TermProfile(
                "(dimensions['node'] = 'ü')",
                List.of("bloom[dimensions['node']]"),
                TermProfile.Check.CANDIDATES),
            new TermProfile("((sum_rollup * 2) > 1)", List.of(), TermProfile.Check.ROWS)),
        List.of("dimensions['service'] (forward)"),
        List.of("sum_rollup"),
        1_900,
        10,
        33,
        2,
        1,
        4,
        42_042,
        true,
        30,
        5,
        2,
        43_000,
        1_912_000,
        773_000,
        202_000);
  }

  static FragmentResponse response() {
    FragmentResponse v1 = TestWireFormat.response();
    FileProfile unsegmented =
        new FileProfile(
            "s3://lake/obs/metrics/data/part-00001.parquet",
            false,
            FileAnswer.WITHOUT_SEGMENT,
            List.of(),
            List.of(),
            List.of("metric"),
            100,
            100,
            0,
            -1,
            -1,
            -1,
            -1,
            false,
            -1,
            -1,
            -1,
            -1,
            5,
            -1,
            -1);
    // A selection's rows: its bytes are stable (a COUNT(DISTINCT) set's order is not).
    return new FragmentResponse(
        TestWireFormat.rows(),
        v1.storageRequests(),
        v1.storageBytesRead(),
        v1.cacheHits(),
        v1.cacheMisses(),
        List.of(profile(), unsegmented));
  }

  @Test
  void decodesTheV2PlanFragment() throws IOException {
    byte[] bytes = golden("fragment.bin");
    assertThat(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getShort(4))
        .isEqualTo((short) 2);
    PlanFragment decoded = PlanFragment.decode(bytes);
    assertThat(decoded.profile()).isEqualTo(ProfileMode.ANALYZE);
    assertThat(decoded.files()).isEqualTo(TestWireFormat.fragment().files());
    assertThat(decoded).isEqualTo(fragment());
    assertThat(fragment().encode()).isEqualTo(bytes);
    // Without a profile the encoder writes version 1, which servers of the release before read.
    assertThat(TestWireFormat.fragment().profile()).isEqualTo(ProfileMode.OFF);
    assertThat(
            ByteBuffer.wrap(TestWireFormat.fragment().encode())
                .order(ByteOrder.LITTLE_ENDIAN)
                .getShort(4))
        .isEqualTo((short) 1);
  }

  @Test
  void decodesTheV2ResponseWithItsProfiles() throws IOException {
    byte[] bytes = golden("response.bin");
    FragmentResponse decoded = FragmentResponse.decode(bytes);
    assertThat(decoded.storageRequests()).isEqualTo(21);
    assertThat(decoded.cacheHits()).isEqualTo(17);
    assertThat(decoded.partial().rows()).hasSize(2);
    assertThat(decoded.profiles()).hasSize(2);
    FileProfile first = decoded.profiles().getFirst();
    assertThat(first.terms().get(1).indexes()).containsExactly("bloom[dimensions['node']]");
    assertThat(first.terms().get(1).check()).isEqualTo(TermProfile.Check.CANDIDATES);
    assertThat(first.lowerBoundBytes()).isEqualTo(42_042);
    assertThat(first.aggregateNanos()).isEqualTo(202_000);
    assertThat(decoded.profiles().get(1).ran()).isFalse();
    assertThat(decoded.profiles().get(1).pagesPlanned()).isEqualTo(-1);
    assertThat(decoded.profiles()).isEqualTo(response().profiles());
    // The frame's encoder is unchanged, but the partial result inside is written in its own
    // newer version since (version 4 of PartialResultCodec, issue 25): the bytes differ there
    // only, so the re-encoding must decode to the same response.
    assertThat(FragmentResponse.decode(response().encode())).isEqualTo(decoded);
  }

  @Test
  void aResponseWithStorageRetriesIsVersion3AndOnlyThen() {
    FragmentResponse plain = TestWireFormat.response();
    FragmentResponse retried =
        new FragmentResponse(
            plain.partial(),
            plain.storageRequests(),
            plain.storageBytesRead(),
            plain.cacheHits(),
            plain.cacheMisses(),
            List.of(),
            3);
    assertThat(version(plain.encode())).isEqualTo((short) 1);
    assertThat(version(response().encode())).isEqualTo((short) 2);
    assertThat(version(retried.encode())).isEqualTo((short) 3);
    FragmentResponse decoded = FragmentResponse.decode(retried.encode());
    assertThat(decoded.storageRetries()).isEqualTo(3);
    assertThat(decoded.storageRequests()).isEqualTo(plain.storageRequests());
    assertThat(decoded.partial().rows()).isEqualTo(plain.partial().rows());
    assertThat(FragmentResponse.decode(plain.encode()).storageRetries()).isZero();
  }

  private static short version(byte[] bytes) {
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getShort(4);
  }

  @Test
  void refusesAnUnknownProfileAndTrailingBytes() {
    byte[] bytes = fragment().encode();
    // The profile is the body's last byte; a damaged one fails the checksum first, so re-frame.
    WireBuffer.Reader body = WireBuffer.open(bytes, PlanFragmentCodec.MAGIC, 2, "plan fragment");
    assertThat(body.version()).isEqualTo(2);
    byte[] unknown = reframed(bytes, 7);
    assertThatThrownBy(() -> PlanFragment.decode(unknown))
        .isInstanceOf(WireFormatException.class)
        .hasMessage("Cannot read a plan fragment: profile 7 is not one of [OFF, PLAN, ANALYZE]");
  }

  /** {@code bytes} with the body's last byte set to {@code value}, framed again. */
  private static byte[] reframed(byte[] bytes, int value) {
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int length = in.getInt(6);
    byte[] body = new byte[length];
    System.arraycopy(bytes, 10, body, 0, length);
    body[length - 1] = (byte) value;
    WireBuffer.Writer out = new WireBuffer.Writer();
    for (byte b : body) {
      out.u8(b & 0xff);
    }
    return out.frame(PlanFragmentCodec.MAGIC, 2);
  }

  private static byte[] golden(String name) throws IOException {
    String write = System.getProperty("shelfmark.golden.write.v2");
    if (write != null) {
      Path dir = Path.of(write);
      Files.createDirectories(dir);
      Files.write(dir.resolve("fragment.bin"), fragment().encode());
      Files.write(dir.resolve("response.bin"), response().encode());
    }
    try (InputStream in = TestWireFormatV2.class.getResourceAsStream("/golden/v2/" + name)) {
      if (in == null) {
        throw new IOException("Cannot find golden file golden/v2/" + name + " on the class path");
      }
      return in.readAllBytes();
    }
  }
}
