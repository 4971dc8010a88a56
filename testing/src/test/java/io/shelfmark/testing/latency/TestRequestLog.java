package io.shelfmark.testing.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TestRequestLog {
  @Test
  void emptyLogHasNoRounds() {
    RequestLog log = new RequestLog(List.of());
    assertThat(log.sequentialRounds()).isZero();
    assertThat(log.maxOverlap()).isZero();
  }

  @Test
  void overlappingRequestsAreOneRound() {
    RequestLog log = new RequestLog(List.of(get(0, 10), get(2, 12), get(9, 20)));
    assertThat(log.sequentialRounds()).isEqualTo(1);
    assertThat(log.maxOverlap()).isEqualTo(3);
  }

  @Test
  void touchingRequestsOverlapAndStrictlyLaterOnesDoNot() {
    assertThat(new RequestLog(List.of(get(0, 10), get(10, 20))).sequentialRounds()).isEqualTo(1);
    assertThat(new RequestLog(List.of(get(0, 10), get(11, 20))).sequentialRounds()).isEqualTo(2);
  }

  @Test
  void roundsAreTheLongestChainNotTheFirstOneFound() {
    // A long request spanning everything would give 1 round if taken first; the chain of three
    // short ones beside it is what the critical path had to wait for.
    RequestLog log =
        new RequestLog(List.of(get(0, 100), get(1, 10), get(11, 20), get(21, 30), get(25, 26)));
    assertThat(log.sequentialRounds()).isEqualTo(3);
    assertThat(log.maxOverlap()).isEqualTo(3);
  }

  @Test
  void waveStructureCountsWaves() {
    // Three waves of two parallel requests each, order of completion shuffled.
    RequestLog log =
        new RequestLog(
            List.of(get(40, 50), get(0, 10), get(20, 31), get(1, 9), get(21, 30), get(41, 49)));
    assertThat(log.sequentialRounds()).isEqualTo(3);
    assertThat(log.maxOverlap()).isEqualTo(2);
  }

  @Test
  void withMethodKeepsOnlyThatMethod() {
    RequestLog log =
        new RequestLog(
            List.of(get(0, 10), new RequestTiming("HEAD", "/b/k", 200, 11, 20, 0, 0), get(21, 30)));
    assertThat(log.withMethod("GET").size()).isEqualTo(2);
    assertThat(log.withMethod("GET").sequentialRounds()).isEqualTo(2);
    assertThat(log.withMethod("HEAD").size()).isEqualTo(1);
    assertThat(log.withMethod("PUT").size()).isZero();
    assertThat(log.sequentialRounds()).isEqualTo(3);
    assertThat(log).hasToString("RequestLog{3 requests, 3 rounds}");
  }

  @Test
  void timingRefusesEndBeforeStart() {
    assertThatThrownBy(() -> new RequestTiming("GET", "/b/k", 200, 10, 5, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot record request GET /b/k: it ends before it starts");
  }

  private static RequestTiming get(long start, long end) {
    return new RequestTiming("GET", "/b/k", 206, start, end, 0, 10);
  }
}
