package io.shelfmark.server.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.storage.spi.StorageException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import org.junit.jupiter.api.Test;

/** Which failures to open a segment only mean the opening thread was interrupted. */
class TestInterruptions {
  @Test
  void interruptionsAreRecognisedThroughTheirWrappers() {
    assertThat(Interruptions.isInterruption(new InterruptedIOException("interrupted"))).isTrue();
    assertThat(Interruptions.isInterruption(new ClosedByInterruptException())).isTrue();
    assertThat(
            Interruptions.isInterruption(
                new StorageException(
                    "Cannot read s3://lake/segment.shfm", new InterruptedException())))
        .isTrue();
    assertThat(
            Interruptions.isInterruption(
                new UncheckedIOException(
                    new IOException("wrapped", new ClosedByInterruptException()))))
        .isTrue();
  }

  @Test
  void timeoutsAndOtherFailuresAreNotInterruptions() {
    // A socket timeout is an InterruptedIOException by type, but a real failure to report.
    assertThat(Interruptions.isInterruption(new SocketTimeoutException("Read timed out")))
        .isFalse();
    assertThat(
            Interruptions.isInterruption(
                new StorageException(
                    "Cannot read s3://lake/segment.shfm: timed out",
                    new SocketTimeoutException("Read timed out"))))
        .isFalse();
    assertThat(Interruptions.isInterruption(new IOException("Connection reset"))).isFalse();
    assertThat(Interruptions.isInterruption(new IllegalStateException("corrupt part"))).isFalse();
  }
}
