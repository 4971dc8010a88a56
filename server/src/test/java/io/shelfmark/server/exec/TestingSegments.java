package io.shelfmark.server.exec;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.indexbuilder.build.BuildOptions;
import io.shelfmark.indexbuilder.build.DataFileSource;
import io.shelfmark.indexbuilder.build.FileOutcome;
import io.shelfmark.indexbuilder.build.SegmentFileBuilder;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import org.apache.iceberg.Schema;

/**
 * Builds the segments of test data files with the index builder ({@link SegmentFileBuilder}), from
 * a table config in YAML, into a segment store in a local directory, and hands back their bytes
 * (each test mode then places them: uploaded to S3 or pinned on local disk).
 */
final class TestingSegments {
  private final ObjectStore dataStore;
  private final SegmentFileBuilder builder;
  private final SegmentStore segments;
  private final SegmentSpec spec;

  TestingSegments(
      ObjectStore dataStore, Executor io, Path directory, String tableConfigYaml, Schema schema)
      throws IOException {
    this.dataStore = dataStore;
    this.builder =
        new SegmentFileBuilder(
            dataStore,
            io,
            IndexService.installed(),
            BuildOptions.builder()
                .workDirectory(Files.createDirectories(directory.resolve("build")))
                .build());
    this.segments = SegmentStore.inDirectory(Files.createDirectories(directory.resolve("store")));
    this.spec =
        SegmentSpec.from(
            ConfigLoader.parseTable(tableConfigYaml, ConfigFormat.YAML, "test table config"),
            schema);
  }

  /** The segment of {@code file}, built as the index builder builds it in production. */
  byte[] build(DataFileInfo file) throws IOException {
    FileOutcome outcome = builder.build(DataFileSource.of(file, 2), spec, segments);
    if (outcome instanceof FileOutcome.Failed failed) {
      throw new IOException("Cannot build the segment of " + file.path() + ": " + failed.failure());
    }
    FileOutcome.Built built = (FileOutcome.Built) outcome;
    return segments
        .objectStore()
        .readRange(built.result().segment(), 0, (int) built.result().segmentBytes());
  }

  ObjectStore dataStore() {
    return dataStore;
  }
}
