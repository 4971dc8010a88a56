package io.shelfmark.config;

import com.fasterxml.jackson.databind.node.TextNode;
import com.google.common.collect.ImmutableMap;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The rules of a {@code catalog} section with {@code type: glue}: the Glue keys of {@code
 * catalog.properties} (iceberg-aws's names, checked here so that a typo is reported with the rest
 * of the config instead of being ignored by Iceberg), the warehouse, and the region, which defaults
 * to {@code storage.region}.
 */
final class GlueCatalogRules {
  /** iceberg-aws's {@code AwsClientProperties.CLIENT_REGION}: the region of the Glue client. */
  static final String REGION_PROPERTY = "client.region";

  static final String ENDPOINT_PROPERTY = "glue.endpoint";
  static final String LAKE_FORMATION_PROPERTY = "glue.lakeformation-enabled";
  static final String GLUE_PREFIX = "glue.";

  // AWS region names: us-east-1, eu-central-2, us-gov-west-1, cn-northwest-1, ap-southeast-7.
  private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-[0-9]+");
  private static final Pattern ACCOUNT_ID = Pattern.compile("[0-9]{12}");

  /** The {@code glue.*} properties iceberg-aws 1.12 reads, each with its check and hint. */
  private static final Map<String, Rule> GLUE_PROPERTIES =
      ImmutableMap.of(
          ENDPOINT_PROPERTY,
          new Rule(
              GlueCatalogRules::isHttpUrl,
              "expected an http:// or https:// URL of a Glue-compatible endpoint"),
          "glue.id",
          new Rule(
              text -> ACCOUNT_ID.matcher(text).matches(),
              "expected the 12-digit AWS account id of the Glue catalog"),
          "glue.account-id",
          new Rule(
              text -> ACCOUNT_ID.matcher(text).matches(), "expected a 12-digit AWS account id"),
          "glue.skip-archive",
          new Rule(GlueCatalogRules::isBoolean, "expected true or false"),
          "glue.skip-name-validation",
          new Rule(GlueCatalogRules::isBoolean, "expected true or false"),
          LAKE_FORMATION_PROPERTY,
          new Rule(
              text -> text.strip().equalsIgnoreCase("false"),
              "Lake Formation credential vending is not supported: Shelfmark reads table files"
                  + " with its own S3 client; remove the key and grant the node's role read"
                  + " access to the table locations"));

  private GlueCatalogRules() {}

  /**
   * Checks the Glue keys and returns the properties to give the catalog: {@code properties} with
   * {@value #REGION_PROPERTY} set to {@code storageRegion} when absent.
   */
  static Map<String, String> check(
      ConfigNode catalog,
      Map<String, String> properties,
      Optional<String> warehouse,
      String storageRegion) {
    warehouse
        .filter(location -> !isS3Location(location))
        .ifPresent(
            location ->
                catalog.reject(
                    ClusterKeys.WAREHOUSE,
                    "expected an s3:// location such as s3://lake/warehouse: Glue tables live in"
                        + " S3"));
    String propertiesPath = catalog.keyPath(ClusterKeys.PROPERTIES);
    for (Map.Entry<String, String> property : properties.entrySet()) {
      String name = property.getKey();
      String value = property.getValue();
      String keyPath = propertiesPath + "." + name;
      if (name.equals(REGION_PROPERTY) && !REGION.matcher(value.strip()).matches()) {
        catalog
            .context()
            .invalid(
                keyPath,
                TextNode.valueOf(value),
                "expected an AWS region such as us-east-1; without it storage.region is used");
      } else if (name.startsWith(GLUE_PREFIX)) {
        Rule rule = GLUE_PROPERTIES.get(name);
        if (rule == null) {
          catalog
              .context()
              .invalid(
                  keyPath,
                  TextNode.valueOf(value),
                  "not a Glue catalog property; known: "
                      + String.join(", ", GLUE_PROPERTIES.keySet().stream().sorted().toList()));
        } else if (!rule.valid().test(value.strip())) {
          catalog.context().invalid(keyPath, TextNode.valueOf(value), rule.hint());
        }
      }
    }
    Map<String, String> resolved = new LinkedHashMap<>(properties);
    resolved.putIfAbsent(REGION_PROPERTY, storageRegion);
    return resolved;
  }

  private static boolean isS3Location(String location) {
    String lower = location.strip().toLowerCase(Locale.ROOT);
    return (lower.startsWith("s3://") || lower.startsWith("s3a://")) && lower.length() > 5;
  }

  private static boolean isHttpUrl(String text) {
    try {
      URI uri = new URI(text);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
    } catch (URISyntaxException e) {
      return false; // reported by the caller with the rule's hint
    }
  }

  private static boolean isBoolean(String text) {
    return text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false");
  }

  private record Rule(Predicate<String> valid, String hint) {}
}
