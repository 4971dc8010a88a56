package io.shelfmark.cli.lake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 finding 10: {@code lake --data-dir DIR} on a quickstart's directory opened a new, empty
 * catalog in DIR beside the quickstart's in DIR/lake. Each command now opens whichever layout holds
 * a catalog.
 */
class TestLocalLakeLocate {
  @TempDir Path dataDir;

  @Test
  void quickstartLayoutIsOpenedByTheLakeCommands() throws Exception {
    Path quickstartLake = Files.createDirectories(dataDir.resolve(LocalLake.QUICKSTART_LAKE));
    Files.createFile(quickstartLake.resolve(LocalLake.CATALOG_FILE));
    assertThat(LocalLake.locate(dataDir, dataDir)).isEqualTo(quickstartLake);
  }

  @Test
  void lakeLayoutIsOpenedByTheQuickstart() throws Exception {
    Files.createFile(dataDir.resolve(LocalLake.CATALOG_FILE));
    assertThat(LocalLake.locate(dataDir, dataDir.resolve(LocalLake.QUICKSTART_LAKE)))
        .isEqualTo(dataDir);
  }

  @Test
  void emptyDirectoryGetsEachCommandsOwnLayout() {
    assertThat(LocalLake.locate(dataDir, dataDir)).isEqualTo(dataDir);
    Path quickstart = dataDir.resolve(LocalLake.QUICKSTART_LAKE);
    assertThat(LocalLake.locate(dataDir, quickstart)).isEqualTo(quickstart);
  }
}
