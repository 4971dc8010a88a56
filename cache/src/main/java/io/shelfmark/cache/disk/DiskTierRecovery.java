package io.shelfmark.cache.disk;

import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists what a previous run left in a disk cache's {@code entries} directory, without reading file
 * contents: entries to index (oldest first, so the eviction policy meets them in roughly the order
 * they were written), unfinished writes to delete, and files too short to be entries. Anything else
 * is not the cache's and is left alone with a warning.
 */
final class DiskTierRecovery {
  private static final Logger log = LoggerFactory.getLogger(DiskTierRecovery.class);

  private DiskTierRecovery() {}

  record Found(String name, int size, long modifiedMillis) {}

  record Result(List<Found> entries, List<Path> unfinished, List<Path> truncated) {}

  static Result scan(Path entries) throws IOException {
    List<Found> found = new ArrayList<>();
    ImmutableList.Builder<Path> unfinished = ImmutableList.builder();
    ImmutableList.Builder<Path> truncated = ImmutableList.builder();
    try (DirectoryStream<Path> shards = Files.newDirectoryStream(entries)) {
      for (Path shard : shards) {
        String shardName = shard.getFileName().toString();
        if (!Files.isDirectory(shard) || shardName.length() != 2) {
          log.warn("Ignoring {} in disk cache directory: not a cache file", shard);
          continue;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(shard)) {
          for (Path file : files) {
            String name = file.getFileName().toString();
            if (name.endsWith(DiskTier.TEMP_SUFFIX)) {
              unfinished.add(file);
              continue;
            }
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            if (!attributes.isRegularFile()
                || !DiskEntryCodec.isEntryName(name)
                || !name.startsWith(shardName)
                || attributes.size() > Integer.MAX_VALUE) {
              log.warn("Ignoring {} in disk cache directory: not a cache file", file);
            } else if (attributes.size() < DiskEntryCodec.HEADER_SIZE) {
              truncated.add(file);
            } else {
              found.add(
                  new Found(
                      name, (int) attributes.size(), attributes.lastModifiedTime().toMillis()));
            }
          }
        }
      }
    }
    found.sort(Comparator.comparingLong(Found::modifiedMillis).thenComparing(Found::name));
    return new Result(ImmutableList.copyOf(found), unfinished.build(), truncated.build());
  }
}
