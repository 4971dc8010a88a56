package io.shelfmark.cli.bench.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class TestVersions {
  @Test
  void roaringBitmapsVersionComesFromItsJarsFileName() {
    // Its jar has no Maven metadata; the test class path holds it as RoaringBitmap-<version>.jar.
    assertThat(Versions.maven("org.roaringbitmap", "RoaringBitmap")).isEqualTo("unknown");
    assertThat(Versions.jarFileVersion(RoaringBitmap.class, "RoaringBitmap"))
        .matches("\\d+\\.\\d+\\.\\d+.*");
  }

  @Test
  void aClassNotFromThatArtifactsJarHasNoVersion() {
    assertThat(Versions.jarFileVersion(RoaringBitmap.class, "xchart")).isEqualTo("unknown");
    // Loaded from a directory of classes, not a jar.
    assertThat(Versions.jarFileVersion(TestVersions.class, "shelfmark-cli")).isEqualTo("unknown");
  }
}
