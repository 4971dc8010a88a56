package io.shelfmark.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.ClusterConfig;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code catalog} section with {@code type: glue}: its keys, their checks and defaults. */
class TestGlueCatalogConfig {
  private static final ConfigLoader LOADER = ConfigLoader.withoutEnvironment();

  @Test
  void regionComesFromStorageWhenNotSetAndOtherKeysPassThrough() {
    CatalogConfig catalog =
        parse(
                """
                segment-store: s3://lake/_shelfmark/segments
                storage:
                  type: s3
                  region: eu-west-1
                catalog:
                  type: glue
                  name: aws
                  warehouse: s3://lake/warehouse
                  properties:
                    glue.id: "123456789012"
                    glue.skip-archive: "false"
                """)
            .catalog()
            .orElseThrow();
    assertThat(catalog.type()).isEqualTo(CatalogType.GLUE);
    assertThat(catalog.name()).isEqualTo("aws");
    assertThat(catalog.uri()).isEmpty();
    assertThat(catalog.warehouse()).hasValue("s3://lake/warehouse");
    assertThat(catalog.properties())
        .containsExactly(
            Map.entry("glue.id", "123456789012"),
            Map.entry("glue.skip-archive", "false"),
            Map.entry("client.region", "eu-west-1"));
  }

  @Test
  void regionAndEndpointPropertiesWinAndWarehouseIsOptional() {
    CatalogConfig catalog =
        parse(
                """
                segment-store: s3://lake/_shelfmark/segments
                storage:
                  type: s3
                  region: eu-west-1
                catalog:
                  type: glue
                  properties:
                    client.region: us-gov-west-1
                    glue.endpoint: http://127.0.0.1:5000
                """)
            .catalog()
            .orElseThrow();
    assertThat(catalog.warehouse()).isEmpty();
    assertThat(catalog.properties())
        .containsExactly(
            Map.entry("client.region", "us-gov-west-1"),
            Map.entry("glue.endpoint", "http://127.0.0.1:5000"));
  }

  @Test
  void withoutStorageSectionTheDefaultRegionIsUsed() {
    CatalogConfig catalog =
        parse(
                """
                segment-store: s3://lake/_shelfmark/segments
                catalog:
                  type: glue
                """)
            .catalog()
            .orElseThrow();
    assertThat(catalog.properties()).containsExactly(Map.entry("client.region", "us-east-1"));
  }

  @Test
  void everyWrongKeyIsNamedByItsPath() {
    assertViolations(
        """
        segment-store: s3://lake/_shelfmark/segments
        catalog:
          type: glue
          uri: https://glue.eu-west-1.amazonaws.com
          warehouse: /var/lib/warehouse
          properties:
            client.region: Europe
            glue.endpoint: glue.local:5000
            glue.id: "1234"
            glue.account-id: abc
            glue.skip-archive: maybe
            glue.skip-name-validation: "yes"
            glue.lakeformation-enabled: "true"
            glue.endpoitn: http://x
            jdbc.user: ignored-by-glue
        """,
        "Cannot use catalog.uri: \"https://glue.eu-west-1.amazonaws.com\" (not used when"
            + " catalog.type is glue; remove it)",
        "Cannot use catalog.warehouse: \"/var/lib/warehouse\" (expected an s3:// location such as"
            + " s3://lake/warehouse: Glue tables live in S3)",
        "Cannot use catalog.properties.client.region: \"Europe\" (expected an AWS region such as"
            + " us-east-1; without it storage.region is used)",
        "Cannot use catalog.properties.glue.endpoint: \"glue.local:5000\" (expected an http:// or"
            + " https:// URL of a Glue-compatible endpoint)",
        "Cannot use catalog.properties.glue.id: \"1234\" (expected the 12-digit AWS account id of"
            + " the Glue catalog)",
        "Cannot use catalog.properties.glue.account-id: \"abc\" (expected a 12-digit AWS account"
            + " id)",
        "Cannot use catalog.properties.glue.skip-archive: \"maybe\" (expected true or false)",
        "Cannot use catalog.properties.glue.skip-name-validation: \"yes\" (expected true or"
            + " false)",
        "Cannot use catalog.properties.glue.lakeformation-enabled: \"true\" (Lake Formation"
            + " credential vending is not supported: Shelfmark reads table files with its own S3"
            + " client; remove the key and grant the node's role read access to the table"
            + " locations)",
        "Cannot use catalog.properties.glue.endpoitn: \"http://x\" (not a Glue catalog property;"
            + " known: glue.account-id, glue.endpoint, glue.id, glue.lakeformation-enabled,"
            + " glue.skip-archive, glue.skip-name-validation)");
  }

  @Test
  void environmentVariablesSelectGlue() {
    ClusterConfig config =
        new ConfigLoader(
                Map.of(
                    "SHELFMARK_CATALOG_TYPE", "glue",
                    "SHELFMARK_STORAGE_REGION", "ap-southeast-2"))
            .parseCluster(
                "segment-store: s3://lake/_shelfmark/segments\n",
                ConfigFormat.YAML,
                "cluster.yaml");
    CatalogConfig catalog = config.catalog().orElseThrow();
    assertThat(catalog.type()).isEqualTo(CatalogType.GLUE);
    assertThat(catalog.uri()).isEqualTo(Optional.empty());
    assertThat(catalog.properties()).containsEntry("client.region", "ap-southeast-2");
  }

  private static ClusterConfig parse(String yaml) {
    return LOADER.parseCluster(yaml, ConfigFormat.YAML, "cluster.yaml");
  }

  private static void assertViolations(String yaml, String... expected) {
    try {
      parse(yaml);
    } catch (ConfigException e) {
      assertThat(e.violations()).extracting(Violation::message).containsExactly(expected);
      return;
    }
    throw new AssertionError("Expected a ConfigException for:\n" + yaml);
  }
}
