package io.shelfmark.config.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import io.shelfmark.config.table.TableIdentity;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The Iceberg catalog tables are read from (config section {@code catalog}).
 *
 * <p>{@code uri} is required for JDBC (a JDBC URL such as {@code jdbc:sqlite:/path/catalog.db} or
 * {@code jdbc:postgresql://host/db}) and REST (the base URL), and absent for Glue. {@code
 * warehouse} is required for JDBC and optional otherwise. {@code properties} are passed to the
 * Iceberg catalog as they are (for example {@code jdbc.user}, {@code jdbc.password}, {@code
 * credential}); {@link #toString()} hides the values of properties whose names suggest a secret.
 *
 * @param type JDBC, REST or GLUE
 * @param name the catalog's name, as Iceberg identifiers and table configs refer to it
 * @param uri the JDBC URL or REST base URL
 * @param warehouse the warehouse location such as {@code s3://lake/warehouse}
 * @param properties extra catalog properties, in file order
 */
public record CatalogConfig(
    CatalogType type,
    String name,
    Optional<String> uri,
    Optional<String> warehouse,
    Map<String, String> properties) {
  /** The catalog name the quickstart and examples use. */
  public static final String DEFAULT_NAME = TableIdentity.DEFAULT_CATALOG;

  public CatalogConfig {
    requireNonNull(type, "type is null");
    requireNonNull(name, "name is null");
    requireNonNull(uri, "uri is null");
    requireNonNull(warehouse, "warehouse is null");
    properties = ImmutableMap.copyOf(requireNonNull(properties, "properties is null"));
    checkArgument(!name.isBlank(), "Cannot use catalog.name: blank");
    switch (type) {
      case JDBC -> {
        checkArgument(
            uri.isPresent() && uri.get().startsWith("jdbc:"),
            "Cannot use catalog.uri: %s (expected a JDBC URL such as jdbc:sqlite:/path/catalog.db)",
            uri.orElse("absent"));
        checkArgument(
            warehouse.isPresent(), "Cannot use catalog.type jdbc without catalog.warehouse");
      }
      case REST ->
          checkArgument(
              uri.isPresent()
                  && (uri.get().startsWith("http://") || uri.get().startsWith("https://")),
              "Cannot use catalog.uri: %s (expected an http:// or https:// URL)",
              uri.orElse("absent"));
      case GLUE -> checkArgument(uri.isEmpty(), "Cannot use catalog.uri with catalog.type glue");
    }
  }

  /** Whether a property's value is hidden when printed: its name mentions a secret. */
  public static boolean isSecretProperty(String propertyName) {
    String lower = propertyName.toLowerCase(Locale.ROOT);
    return lower.contains("password")
        || lower.contains("secret")
        || lower.contains("token")
        || lower.contains("credential");
  }

  @Override
  public String toString() {
    String shownProperties =
        properties.entrySet().stream()
            .map(e -> e.getKey() + "=" + (isSecretProperty(e.getKey()) ? "****" : e.getValue()))
            .collect(Collectors.joining(", ", "{", "}"));
    return "CatalogConfig[type=%s, name=%s, uri=%s, warehouse=%s, properties=%s]"
        .formatted(type, name, uri, warehouse, shownProperties);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link CatalogConfig}; each setting may be set once. {@code type} is required. */
  public static final class Builder {
    private CatalogType type;
    private String name;
    private String uri;
    private String warehouse;
    private final ImmutableMap.Builder<String, String> properties = ImmutableMap.builder();

    private Builder() {}

    public Builder type(CatalogType type) {
      checkUnset("type", this.type);
      this.type = requireNonNull(type, "type is null");
      return this;
    }

    public Builder name(String name) {
      checkUnset("name", this.name);
      this.name = requireNonNull(name, "name is null");
      return this;
    }

    public Builder uri(String uri) {
      checkUnset("uri", this.uri);
      this.uri = requireNonNull(uri, "uri is null");
      return this;
    }

    public Builder warehouse(String warehouse) {
      checkUnset("warehouse", this.warehouse);
      this.warehouse = requireNonNull(warehouse, "warehouse is null");
      return this;
    }

    /** Adds one catalog property; adding the same name twice fails at {@link #build()}. */
    public Builder property(String name, String value) {
      properties.put(requireNonNull(name, "name is null"), requireNonNull(value, "value is null"));
      return this;
    }

    public CatalogConfig build() {
      checkState(type != null, "Cannot build catalog config: type is not set");
      return new CatalogConfig(
          type,
          name == null ? DEFAULT_NAME : name,
          Optional.ofNullable(uri),
          Optional.ofNullable(warehouse),
          properties.buildOrThrow());
    }

    private static void checkUnset(String name, Object current) {
      checkState(current == null, "Cannot set %s twice: already set to %s", name, current);
    }
  }
}
