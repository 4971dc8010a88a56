package io.shelfmark.cache.disk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.cache.key.ObjectIdentity;
import io.shelfmark.storage.spi.Location;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The entry format against a golden file written from the documented layout by another tool. */
class TestDiskEntryCodec {
  private static final CacheKey GOLDEN_KEY =
      CacheKey.of(
          ObjectIdentity.versioned(
              Location.parse("s3://lake/_shelfmark/t/seg-1.smk"), 1000, "\"e1\""),
          16,
          8);
  private static final byte[] GOLDEN_PAYLOAD = {
    0, 1, 2, 3, (byte) 0xfd, (byte) 0xfe, (byte) 0xff, 0x7f
  };

  @TempDir Path directory;

  private static byte[] golden() throws IOException {
    try (InputStream in =
        TestDiskEntryCodec.class.getResourceAsStream("/golden/disk-entry-v1.bin")) {
      assertThat(in).as("golden file on the test class path").isNotNull();
      return in.readAllBytes();
    }
  }

  @Test
  void writesTheDocumentedLayout() throws IOException {
    Path file = Files.createFile(directory.resolve("entry"));
    DiskEntryCodec.write(file, DiskEntryCodec.encodeKey(GOLDEN_KEY), GOLDEN_PAYLOAD);
    assertThat(Files.readAllBytes(file)).isEqualTo(golden());
  }

  @Test
  void readsTheGoldenEntry() throws IOException {
    Path file = Files.write(directory.resolve("entry"), golden());
    assertThat(DiskEntryCodec.read(file, DiskEntryCodec.encodeKey(GOLDEN_KEY), 8))
        .isEqualTo(GOLDEN_PAYLOAD);
  }

  @Test
  void namesEntriesByKeyDigest() {
    assertThat(DiskEntryCodec.entryName(DiskEntryCodec.encodeKey(GOLDEN_KEY)))
        .isEqualTo("dcbd5c744ef4583a3cd3dfefb7d79941");
    assertThat(DiskEntryCodec.isEntryName("dcbd5c744ef4583a3cd3dfefb7d79941")).isTrue();
    assertThat(DiskEntryCodec.isEntryName("DCBD5C744EF4583A3CD3DFEFB7D79941")).isFalse();
    assertThat(DiskEntryCodec.isEntryName("dcbd5c744ef4583a3cd3dfefb7d7994")).isFalse();
  }

  @Test
  void immutableAndVersionedKeysEncodeDifferently() {
    ObjectIdentity immutable = ObjectIdentity.immutable(GOLDEN_KEY.object().location(), 1000);
    byte[] encoded = DiskEntryCodec.encodeKey(CacheKey.of(immutable, 16, 8));
    assertThat(encoded[0]).isEqualTo((byte) 'I');
    assertThat(DiskEntryCodec.entryName(encoded))
        .isNotEqualTo(DiskEntryCodec.entryName(DiskEntryCodec.encodeKey(GOLDEN_KEY)));
  }

  @Test
  void refusesAnEntryForAnotherRange() throws IOException {
    Path file = Files.write(directory.resolve("entry"), golden());
    CacheKey neighbour = CacheKey.of(GOLDEN_KEY.object(), 24, 8);
    assertThatThrownBy(() -> DiskEntryCodec.read(file, DiskEntryCodec.encodeKey(neighbour), 8))
        .isInstanceOf(CorruptCacheEntryException.class)
        .hasMessage(
            "Cannot use disk cache entry "
                + file
                + ": holds a different key than requested (the entry is dropped)");
  }

  @Test
  void refusesAnUnknownFormatVersion() throws IOException {
    byte[] bytes = golden();
    bytes[4] = 2;
    // Re-seal the header checksum so that only the version is wrong.
    int crc = DiskEntryCodec.crc32c(bytes, 0, 24);
    bytes[24] = (byte) crc;
    bytes[25] = (byte) (crc >>> 8);
    bytes[26] = (byte) (crc >>> 16);
    bytes[27] = (byte) (crc >>> 24);
    Path file = Files.write(directory.resolve("entry"), bytes);
    assertThatThrownBy(() -> DiskEntryCodec.read(file, DiskEntryCodec.encodeKey(GOLDEN_KEY), 8))
        .isInstanceOf(CorruptCacheEntryException.class)
        .hasMessage(
            "Cannot use disk cache entry "
                + file
                + ": format version 2 but this build reads 1 (the entry is dropped)");
  }

  @Test
  void refusesATruncatedEntryBeforeAllocatingItsPayload() throws IOException {
    byte[] bytes = golden();
    Path file =
        Files.write(directory.resolve("entry"), java.util.Arrays.copyOf(bytes, bytes.length - 3));
    assertThatThrownBy(() -> DiskEntryCodec.read(file, DiskEntryCodec.encodeKey(GOLDEN_KEY), 8))
        .isInstanceOf(CorruptCacheEntryException.class)
        .hasMessage(
            "Cannot use disk cache entry "
                + file
                + ": file is 102 bytes but its header declares 105 (the entry is dropped)");
  }
}
