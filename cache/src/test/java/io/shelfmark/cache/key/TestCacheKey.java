package io.shelfmark.cache.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestCacheKey {
  private static final Location DATA = Location.parse("s3://lake/events/data/00001.parquet");

  @Test
  void immutableIdentityIsPathAndSize() {
    assertThat(ObjectIdentity.immutable(DATA, 1000))
        .isEqualTo(ObjectIdentity.immutable(DATA, 1000));
    // Should miss: a different size means a different file, even at the same path.
    assertThat(ObjectIdentity.immutable(DATA, 1000))
        .isNotEqualTo(ObjectIdentity.immutable(DATA, 1001));
  }

  @Test
  void versionedIdentityDiffersByEtag() {
    ObjectIdentity first = ObjectIdentity.versioned(DATA, 1000, "\"etag-1\"");
    ObjectIdentity rewritten = ObjectIdentity.versioned(DATA, 1000, "\"etag-2\"");
    assertThat(first).isNotEqualTo(rewritten);
    assertThat(CacheKey.of(first, 0, 10)).isNotEqualTo(CacheKey.of(rewritten, 0, 10));
    // An immutable identity never stands in for a versioned one.
    assertThat(ObjectIdentity.immutable(DATA, 1000)).isNotEqualTo(first);
  }

  @Test
  void versionedFromObjectInfo() {
    ObjectInfo info = new ObjectInfo(DATA, 1000, Optional.of("\"abc\""));
    assertThat(ObjectIdentity.versioned(info))
        .isEqualTo(ObjectIdentity.versioned(DATA, 1000, "\"abc\""));
    assertThatThrownBy(() -> ObjectIdentity.versioned(new ObjectInfo(DATA, 1000, Optional.empty())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot identify mutable object s3://lake/events/data/00001.parquet: the store reported"
                + " no ETag (cache it as immutable only if it is never rewritten)");
  }

  @Test
  void identityRejectsBadValues() {
    assertThatThrownBy(() -> ObjectIdentity.immutable(DATA, -1))
        .hasMessage(
            "Cannot identify object s3://lake/events/data/00001.parquet: size is negative: -1");
    assertThatThrownBy(() -> ObjectIdentity.versioned(DATA, 10, ""))
        .hasMessage(
            "Cannot identify object s3://lake/events/data/00001.parquet: etag is empty (use"
                + " immutable() for objects without a version tag)");
    assertThatThrownBy(() -> ObjectIdentity.immutable(null, 10)).hasMessage("location is null");
  }

  @Test
  void keyRejectsRangesOutsideTheObject() {
    ObjectIdentity object = ObjectIdentity.immutable(DATA, 100);
    assertThat(CacheKey.of(object, 90, 10).toString())
        .isEqualTo("s3://lake/events/data/00001.parquet (100 bytes)[90, 100)");
    assertThatThrownBy(() -> CacheKey.of(object, 91, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot cache range [91, 101) of s3://lake/events/data/00001.parquet (100 bytes): it"
                + " ends past the object's end (re-read the object's size)");
    assertThatThrownBy(() -> CacheKey.of(object, -1, 10))
        .hasMessage(
            "Cannot cache range of s3://lake/events/data/00001.parquet (100 bytes): offset is"
                + " negative: -1");
    assertThatThrownBy(() -> CacheKey.of(object, 0, 0))
        .hasMessage(
            "Cannot cache range of s3://lake/events/data/00001.parquet (100 bytes): length must be"
                + " positive but is 0");
    // Near the top of the long range the end check must not overflow.
    ObjectIdentity huge = ObjectIdentity.immutable(DATA, Long.MAX_VALUE);
    assertThat(CacheKey.of(huge, Long.MAX_VALUE - 10, 10).length()).isEqualTo(10);
    assertThatThrownBy(() -> CacheKey.of(huge, Long.MAX_VALUE - 9, 10))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void wholeObject() {
    ObjectIdentity object = ObjectIdentity.versioned(DATA, 4096, "v1");
    assertThat(CacheKey.wholeObject(object)).isEqualTo(CacheKey.of(object, 0, 4096));
    assertThat(CacheKey.wholeObject(object).toString())
        .isEqualTo("s3://lake/events/data/00001.parquet@v1 (4096 bytes)[0, 4096)");
    assertThatThrownBy(() -> CacheKey.wholeObject(ObjectIdentity.immutable(DATA, 3L << 30)))
        .hasMessage(
            "Cannot cache whole object s3://lake/events/data/00001.parquet (3221225472 bytes):"
                + " larger than 2147483647 bytes (cache it in ranges)");
  }
}
