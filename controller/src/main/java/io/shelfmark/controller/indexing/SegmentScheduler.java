package io.shelfmark.controller.indexing;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.controller.table.SegmentState;
import io.shelfmark.indexbuilder.build.BuildFailure;
import io.shelfmark.indexbuilder.build.DataFileSource;
import io.shelfmark.indexbuilder.build.FileOutcome;
import io.shelfmark.indexbuilder.build.SegmentFileBuilder;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gets each data file its segment: finds one already in the segment store (built earlier, by this
 * process or another) or builds it on the build executor. Each file's outcome is reported once, on
 * a build thread. A failed build is reported, never thrown, so one bad file cannot stop the others.
 *
 * <p>Thread safe. A file whose segment is already being built is not built twice.
 */
public final class SegmentScheduler {
  private static final Logger log = LoggerFactory.getLogger(SegmentScheduler.class);

  private final SegmentFileBuilder builder;
  private final SegmentStore store;
  private final ExecutorService buildExecutor;
  private final Set<Location> inFlight = ConcurrentHashMap.newKeySet();

  /**
   * @param builder builds one segment
   * @param store where segments are written and found
   * @param buildExecutor runs builds; its parallelism bounds concurrent builds (decoding is CPU
   *     bound: about one build per core)
   */
  public SegmentScheduler(
      SegmentFileBuilder builder, SegmentStore store, ExecutorService buildExecutor) {
    this.builder = requireNonNull(builder, "builder is null");
    this.store = requireNonNull(store, "store is null");
    this.buildExecutor = requireNonNull(buildExecutor, "buildExecutor is null");
  }

  public SegmentStore store() {
    return store;
  }

  /**
   * Finds or builds the segment of {@code file}, then calls {@code done} with its state (ready or
   * failed), unless a build of the same segment is already under way (that one reports).
   */
  public void schedule(
      DataFileInfo file,
      SegmentSpec spec,
      int formatVersion,
      BiConsumer<DataFileInfo, SegmentState> done) {
    requireNonNull(file, "file is null");
    requireNonNull(spec, "spec is null");
    requireNonNull(done, "done is null");
    Location location = store.locationOf(spec, file.path(), file.fileSizeInBytes());
    if (!inFlight.add(location)) {
      return;
    }
    try {
      buildExecutor.execute(
          () -> {
            try {
              done.accept(file, segmentOf(file, spec, formatVersion, location));
            } catch (RuntimeException e) {
              log.error("Cannot record the segment of {}", file.path(), e);
            } finally {
              inFlight.remove(location);
            }
          });
    } catch (RejectedExecutionException e) {
      inFlight.remove(location);
      log.debug("Not building the segment of {}: the scheduler is shutting down", file.path());
    }
  }

  private SegmentState segmentOf(
      DataFileInfo file, SegmentSpec spec, int formatVersion, Location location) {
    try {
      Optional<ObjectInfo> existing = store.find(location);
      if (existing.isPresent()) {
        log.debug("Reusing segment {} of {}", location, file.path());
        return new SegmentState.Ready(location, existing.get().size());
      }
    } catch (IOException e) {
      log.warn("Cannot check for an existing segment of {}: {}", file.path(), e.getMessage());
    }
    FileOutcome outcome =
        builder.build(DataFileSource.of(file, formatVersion), spec, store, location);
    return switch (outcome) {
      case FileOutcome.Built built -> {
        log.debug("Built {}", built.result());
        yield new SegmentState.Ready(built.result().segment(), built.result().segmentBytes());
      }
      case FileOutcome.Reused reused ->
          new SegmentState.Ready(reused.segment(), reused.segmentBytes());
      case FileOutcome.Failed failed -> {
        BuildFailure failure = failed.failure();
        log.warn("{}", failure.message());
        yield new SegmentState.Failed(failure);
      }
    };
  }
}
