package io.shelfmark.cli.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TestTargets {
  @Test
  void everyTargetOfTheIssueIsChecked() {
    Map<String, TargetCheck> checks = byId(TestingReports.sample().targets());
    assertThat(checks.keySet())
        .contains(
            "storage-bytes/Q1/pinned",
            "bytes-over-bound/Q2/pinned",
            "bytes-over-bound/Q3/pinned",
            "sequential-rounds/Q4/pinned",
            "scan-bytes-factor/Q2/pinned",
            "hot-median/Q1/pinned",
            "hot-median/Q4/pinned+pages",
            "remote-over-pinned/Q3",
            "cold-over-hot/Q2/pinned",
            "duckdb-factor/Q1/pinned+pages",
            "sustained-qps/Q4/pinned",
            "heap/20M-rows",
            "heap/100M-rows",
            "second-execution-bytes/Q2/pinned+pages")
        .hasSize(36);
  }

  @Test
  void measuredValuesAreJudged() {
    Map<String, TargetCheck> checks = byId(TestingReports.sample().targets());
    assertThat(checks.get("storage-bytes/Q1/pinned").status()).isEqualTo(TargetCheck.MET);
    TargetCheck bound = checks.get("bytes-over-bound/Q2/pinned");
    assertThat(bound.status()).isEqualTo(TargetCheck.MET);
    assertThat(bound.measured()).isEqualTo(12_000 / 9_000.0);
    assertThat(checks.get("sequential-rounds/Q2/pinned").status()).isEqualTo(TargetCheck.MET);
    // 60,000 scan bytes / 12,000 read = 5×: exactly the target.
    assertThat(checks.get("scan-bytes-factor/Q2/pinned").measured()).isEqualTo(5.0);
    assertThat(checks.get("scan-bytes-factor/Q2/pinned").status()).isEqualTo(TargetCheck.MET);
    // 120 ms cold / 45 ms hot = 2.67×.
    assertThat(checks.get("cold-over-hot/Q2/pinned").status()).isEqualTo(TargetCheck.MET);
    assertThat(checks.get("cold-over-hot/Q1/pinned").detail())
        .isEqualTo("missed by 2.50× the target (7.50 ×, target ≤ 3 ×)");
    // The pinned+pages Q2 record answered an error: its targets are not measured, not met.
    assertThat(checks.get("hot-median/Q2/pinned+pages").status())
        .isEqualTo(TargetCheck.NOT_MEASURED);
    assertThat(checks.get("sustained-qps/Q1/pinned").detail())
        .isEqualTo("missed by 60× short (5 qps, target ≥ 300 qps)");
    assertThat(checks.get("heap/20M-rows").detail())
        .isEqualTo("the run had 20,000 rows, not 20M to under 100M");
    assertThat(checks.get("heap/100M-rows").detail())
        .isEqualTo("the run had 20,000 rows, not 100M or more");
    assertThat(checks.get("remote-over-pinned/Q1").status()).isEqualTo(TargetCheck.NOT_MEASURED);
    // The sample's pinned+pages record had no cold run, so no second execution either.
    assertThat(checks.get("second-execution-bytes/Q2/pinned+pages").status())
        .isEqualTo(TargetCheck.NOT_MEASURED);
  }

  @Test
  void aSecondExecutionThatReadsIsMissed() {
    QueryRecord pages = TestingReports.sample().queries().get(2);
    IoFigures read = new IoFigures(1_048_649, 1, 1, 1_048_649, 1, 24, 1);
    IoFigures none = new IoFigures(0, 0, 0, 0, 0, 25, 0);
    for (IoFigures second : List.of(read, none)) {
      TargetCheck check =
          byId(Targets.evaluate(
                  List.of(pages.withSecondIo(second)),
                  List.of(),
                  List.of(),
                  List.of(),
                  20_000,
                  1L << 30,
                  true))
              .get("second-execution-bytes/Q2/pinned+pages");
      assertThat(check.measured()).isEqualTo((double) second.storageBytes());
      assertThat(check.status())
          .isEqualTo(second.storageBytes() == 0 ? TargetCheck.MET : TargetCheck.MISSED);
    }
  }

  @Test
  void eachHeapTargetIsJudgedByRunsOfItsSize() {
    Map<String, TargetCheck> at20M = byId(heap(20_000_000, 2L << 30));
    assertThat(at20M.get("heap/20M-rows").status()).isEqualTo(TargetCheck.MET);
    assertThat(at20M.get("heap/100M-rows").status()).isEqualTo(TargetCheck.NOT_MEASURED);
    Map<String, TargetCheck> at100M = byId(heap(100_000_000, 4L << 30));
    assertThat(at100M.get("heap/20M-rows").status()).isEqualTo(TargetCheck.NOT_MEASURED);
    assertThat(at100M.get("heap/100M-rows").status()).isEqualTo(TargetCheck.MET);
    assertThat(byId(heap(100_000_000, 6L << 30)).get("heap/100M-rows").status())
        .isEqualTo(TargetCheck.MISSED);
  }

  private static List<TargetCheck> heap(long rows, long maxHeapBytes) {
    return Targets.evaluate(List.of(), List.of(), List.of(), List.of(), rows, maxHeapBytes, true);
  }

  @Test
  void detailsSayByHowMuch() {
    assertThat(Targets.detail(63, 30, "ms", true, false))
        .isEqualTo("missed by 2.10× the target (63 ms, target ≤ 30 ms)");
    assertThat(Targets.detail(512, 0, "bytes", true, false))
        .isEqualTo("missed by 512 bytes over (512 bytes, target ≤ 0 bytes)");
    assertThat(Targets.detail(6.5, 10, "ms", true, true))
        .isEqualTo("met (6.50 ms, 35% under target ≤ 10 ms)");
    assertThat(Targets.detail(0, 0, "bytes", true, true))
        .isEqualTo("met (0 bytes, target ≤ 0 bytes)");
    assertThat(Targets.detail(450, 300, "qps", false, true))
        .isEqualTo("met (450 qps, 50% over target ≥ 300 qps)");
    assertThat(Targets.detail(0, 300, "qps", false, false))
        .isEqualTo("missed by all of it (0 qps, target ≥ 300 qps)");
  }

  private static Map<String, TargetCheck> byId(List<TargetCheck> checks) {
    return checks.stream().collect(Collectors.toMap(TargetCheck::id, Function.identity()));
  }
}
