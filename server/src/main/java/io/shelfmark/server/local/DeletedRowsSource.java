package io.shelfmark.server.local;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import java.io.IOException;
import org.roaringbitmap.RoaringBitmap;

/**
 * The rows of a data file that a snapshot deletes, as 0-based positions in the file. Read once per
 * data file per snapshot when the snapshot is loaded, never per query.
 *
 * <p>Implementations throw an exception whose class name starts with {@code Unsupported} for
 * deletes they cannot apply (equality deletes, a delete file format they cannot read): the server
 * then refuses queries over that file rather than answer without the deletes.
 */
@FunctionalInterface
public interface DeletedRowsSource {
  /**
   * For tables without deletes: a data file with no delete files has no deleted rows, and a data
   * file with delete files is refused (never answered as if nothing were deleted).
   */
  DeletedRowsSource NO_DELETES_EXPECTED =
      (file, snapshot) -> {
        if (!file.deleteFiles().isEmpty()) {
          throw new UnsupportedOperationException(
              "Cannot apply the deletes of " + file.path() + ": this server reads no delete files");
        }
        return new RoaringBitmap();
      };

  RoaringBitmap deletedPositions(DataFileInfo file, TableSnapshot snapshot) throws IOException;
}
