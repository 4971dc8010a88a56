package io.shelfmark.server.delete;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/**
 * A delete file whose content contradicts its format or its metadata (a deletion vector with a bad
 * magic number, length or checksum; a deleted position past the end of its data file; a null {@code
 * file_path} or {@code pos}). The message names the delete file and what is wrong.
 */
public final class CorruptDeletesException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String deleteFile;

  public CorruptDeletesException(String deleteFile, String message) {
    this(deleteFile, message, null);
  }

  public CorruptDeletesException(String deleteFile, String message, Throwable cause) {
    super(requireNonNull(message, "message is null"), cause);
    this.deleteFile = requireNonNull(deleteFile, "deleteFile is null");
  }

  /** The corrupt delete file. */
  public String deleteFile() {
    return deleteFile;
  }
}
