package io.shelfmark.parquet;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the parquet-testing corpus lives: {@code <shared>/parquet-testing}, with {@code <shared>}
 * the {@code shared/} directory beside the repository (the build passes it as the system property
 * {@code shelfmark.shared.dir}). Fails loudly when the corpus is missing rather than skipping.
 */
public final class ParquetTestingFiles {
  private static final Path ROOT = locate();

  /** The valid files. */
  public static final Path DATA = ROOT.resolve("data");

  /** The malformed files. */
  public static final Path BAD_DATA = ROOT.resolve("bad_data");

  private ParquetTestingFiles() {}

  private static Path locate() {
    String configured = System.getProperty("shelfmark.shared.dir");
    Path shared =
        configured != null
            ? Path.of(configured)
            : Path.of(System.getProperty("user.dir")).resolve("../../shared");
    Path root = shared.resolve("parquet-testing").toAbsolutePath().normalize();
    if (!Files.isDirectory(root.resolve("data"))) {
      throw new IllegalStateException(
          "Cannot find the parquet-testing corpus at "
              + root
              + " (it lives in the shared/ directory beside the repository; set"
              + " -Dshelfmark.shared.dir to another location)");
    }
    return root;
  }
}
