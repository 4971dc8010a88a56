package io.shelfmark.generator.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestVocabulary {
  @Test
  void categoriesHaveTheirDocumentedSizes() {
    assertThat(MetricNames.all()).hasSize(500).doesNotHaveDuplicates().startsWith("tk_cache");
    assertThat(DimensionValues.SERVICES).hasSize(50).doesNotHaveDuplicates();
    assertThat(DimensionValues.REGIONS).hasSize(10).doesNotHaveDuplicates();
    assertThat(DimensionValues.NODES).hasSize(100_000).doesNotHaveDuplicates();
    assertThat(DimensionValues.NODES.get(4217)).isEqualTo("node-004217");
    assertThat(DimensionValues.NODES).doesNotContain(DimensionValues.NEEDLE_NODE);
    assertThat(DimensionValues.AZS).hasSize(30).contains("us-east-1a", "sa-east-1c");
    assertThat(DimensionValues.KEYS).hasSize(9).doesNotHaveDuplicates();
  }

  @Test
  void idsResolveToTheirCategoryWords() {
    assertThat(Vocabulary.word(Vocabulary.METRIC_BASE)).isEqualTo("tk_cache");
    assertThat(Vocabulary.word(Vocabulary.KEY_BASE + 2)).isEqualTo("node");
    assertThat(Vocabulary.word(Vocabulary.SERVICE_BASE)).isEqualTo("checkout");
    assertThat(Vocabulary.word(Vocabulary.NODE_BASE + 4217)).isEqualTo("node-004217");
    assertThat(Vocabulary.word(Vocabulary.NEEDLE_NODE_ID)).isEqualTo("xyz");
    assertThat(Vocabulary.size()).isEqualTo(Vocabulary.NEEDLE_NODE_ID + 1);
  }

  @Test
  void dimensionValuesNeverCollideAcrossKeysThatShareAWord() {
    // Words may repeat across categories (e.g. "payments" is a service and a team); ids differ,
    // which is fine, but node values must stay unique so the needle count is exact.
    Set<String> nodes = new HashSet<>(DimensionValues.NODES);
    for (List<String> other :
        List.of(DimensionValues.SERVICES, DimensionValues.REGIONS, DimensionValues.PODS)) {
      assertThat(other).noneMatch(nodes::contains);
    }
  }
}
