package io.shelfmark.broker.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TestFailureLog {
  @Test
  void aFloodOfFailuresLogsAFewLinesAndThenCountsTheRest() {
    AtomicLong now = new AtomicLong();
    List<String> lines = new ArrayList<>();
    FailureLog log = new FailureLog(3, Duration.ofMinutes(1), now::get, lines::add);
    for (int i = 0; i < 1000; i++) {
      log.failed("10.0.0.9:5000", "wrong password or unknown user \"root\"");
    }
    assertThat(lines)
        .hasSize(3)
        .allSatisfy(
            line ->
                assertThat(line)
                    .isEqualTo(
                        "Failed authentication from 10.0.0.9:5000: wrong password or unknown user"
                            + " \"root\""));
    now.addAndGet(Duration.ofMinutes(1).toNanos());
    log.failed("10.0.0.9:5001", "invalid bearer token");
    assertThat(lines.subList(3, lines.size()))
        .containsExactly(
            "Failed authentication: 997 more failures were not logged in the last window (at most 3"
                + " lines per 60 s)",
            "Failed authentication from 10.0.0.9:5001: invalid bearer token");
  }
}
