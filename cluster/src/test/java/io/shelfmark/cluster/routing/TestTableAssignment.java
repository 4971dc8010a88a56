package io.shelfmark.cluster.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestTableAssignment {
  private static final String A = "s3://lake/t/a.parquet";
  private static final String B = "s3://lake/t/b.parquet";

  /** File a moves from server-1 to server-3; file b stays on server-2. */
  private static TableAssignment moving() {
    Map<String, FileReplicas> files = new LinkedHashMap<>();
    files.put(A, new FileReplicas("s3://lake/seg/a.shfm", 100, List.of("server-3")));
    files.put(B, new FileReplicas(null, 0, List.of("server-2")));
    return new TableAssignment("t.x", "lake", "t", "x", 7, 3, files);
  }

  @Test
  void anOldReplicaIsRoutedOnlyUntilAnAssignedOneServes() {
    TableAssignment before =
        moving().servedBy(Map.of("server-1", Set.of(A), "server-2", Set.of(B)));
    assertThat(before.files().get(A).servers()).containsExactly("server-1");
    assertThat(before.covered()).isTrue();

    TableAssignment after =
        moving()
            .servedBy(Map.of("server-1", Set.of(A), "server-2", Set.of(B), "server-3", Set.of(A)));
    assertThat(after.files().get(A).servers()).containsExactly("server-3");
    assertThat(after.files().get(A).segmentLocation()).contains("s3://lake/seg/a.shfm");
    assertThat(after.filesOf("server-1")).isEmpty();
  }

  @Test
  void aFileNobodyServesLeavesTheRoutingUncovered() {
    TableAssignment routing = moving().servedBy(Map.of("server-2", Set.of(B)));
    assertThat(routing.files().get(A).servers()).isEmpty();
    assertThat(routing.covered()).isFalse();
  }

  @Test
  void sameAsIgnoresTheVersion() {
    assertThat(moving().withVersion(9).sameAs(moving())).isTrue();
    assertThat(moving().servedBy(Map.of()).sameAs(moving())).isFalse();
  }
}
