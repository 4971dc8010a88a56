package io.shelfmark.config;

import static io.shelfmark.config.ClusterKeys.CERTIFICATE_FILE;
import static io.shelfmark.config.ClusterKeys.PASSWORD_HASH;
import static io.shelfmark.config.ClusterKeys.PRIVATE_KEY_FILE;
import static io.shelfmark.config.ClusterKeys.PRIVATE_KEY_PASSWORD;
import static io.shelfmark.config.ClusterKeys.ROLES;
import static io.shelfmark.config.ClusterKeys.TABLES;
import static io.shelfmark.config.ClusterKeys.TLS;
import static io.shelfmark.config.ClusterKeys.TOKEN_HASH;
import static io.shelfmark.config.ClusterKeys.USERS;

import com.google.common.collect.Sets;
import io.shelfmark.config.security.PasswordHash;
import io.shelfmark.config.security.SecurityConfig;
import io.shelfmark.config.security.TablePattern;
import io.shelfmark.config.security.TlsConfig;
import io.shelfmark.config.security.TokenHash;
import io.shelfmark.config.security.UserConfig;
import io.shelfmark.config.security.UserRole;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads the {@code security} section. Hashes and the key password are secrets for messages: a hash
 * that does not parse is often a password pasted in its place, so its value is never shown.
 */
final class SecurityConfigBinder {
  private SecurityConfigBinder() {}

  /** Empty when the section itself has violations (recorded); others' do not count. */
  static Optional<SecurityConfig> bind(ConfigNode security) {
    int before = security.context().violations().size();
    List<UserConfig> users = bindUsers(security);
    Optional<TlsConfig> tls = bindTls(security.section(TLS));
    if (security.context().violations().size() > before) {
      return Optional.empty();
    }
    return Optional.of(new SecurityConfig(users, tls));
  }

  private static List<UserConfig> bindUsers(ConfigNode security) {
    Map<String, ConfigNode> sections =
        security.namedSections(
            USERS, "expected a section per user name, with password-hash or token-hash and roles");
    List<UserConfig> users = new ArrayList<>();
    Map<TokenHash, String> tokenOwners = new HashMap<>();
    for (Map.Entry<String, ConfigNode> entry : sections.entrySet()) {
      String name = entry.getKey();
      ConfigNode user = entry.getValue();
      boolean valid = true;
      if (!UserConfig.NAME_PATTERN.matcher(name).matches()) {
        user.context()
            .add(
                user.path(),
                "Cannot use user name \""
                    + name
                    + "\" under "
                    + ClusterKeys.SECURITY_USERS
                    + " (letters, digits, '.', '_', '@' and '-', at most 64; no ':')");
        valid = false;
      } else if (name.equals(UserConfig.RESERVED_NAME)) {
        user.context()
            .add(
                user.path(),
                "Cannot use user name \""
                    + name
                    + "\" under "
                    + ClusterKeys.SECURITY_USERS
                    + " (the node's warm-up uses it; choose another name)");
        valid = false;
      }
      Optional<PasswordHash> password = hash(user, PASSWORD_HASH, PasswordHash::parse);
      Optional<TokenHash> token = hash(user, TOKEN_HASH, TokenHash::parse);
      if (!user.isSet(PASSWORD_HASH) && !user.isSet(TOKEN_HASH)) {
        user.context()
            .missing(
                user.keyPath(PASSWORD_HASH),
                "or "
                    + TOKEN_HASH
                    + ": how user "
                    + name
                    + " logs in; make one with bin/shelfmark auth hash-password or hash-token");
        valid = false;
      }
      Optional<List<UserRole>> roles = user.choices(ROLES, UserRole.values(), UserRole::configName);
      user.require(ROLES, "what user " + name + " may do: query, admin or both");
      Optional<List<TablePattern>> tables = tables(user);
      if (token.isPresent()) {
        String owner = tokenOwners.putIfAbsent(token.get(), name);
        if (owner != null) {
          user.context()
              .add(
                  user.keyPath(TOKEN_HASH),
                  "Cannot use "
                      + user.keyPath(TOKEN_HASH)
                      + ": user "
                      + owner
                      + " has the same token (give each user a token of their own)");
          valid = false;
        }
      }
      boolean allRead =
          (password.isPresent() || !user.isSet(PASSWORD_HASH))
              && (token.isPresent() || !user.isSet(TOKEN_HASH))
              && roles.isPresent()
              && (tables.isPresent() || !user.isSet(TABLES));
      if (valid && allRead) {
        users.add(
            new UserConfig(
                name,
                password,
                token,
                Sets.immutableEnumSet(roles.get()),
                tables.orElse(List.of(TablePattern.ALL))));
      }
    }
    return users;
  }

  private static <T> Optional<T> hash(ConfigNode user, String key, Function<String, T> parser) {
    user.context().markSecret(user.keyPath(key));
    Optional<String> text = user.string(key, value -> !value.isBlank(), "expected a hash");
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(parser.apply(text.get()));
    } catch (IllegalArgumentException e) {
      user.reject(key, e.getMessage());
      return Optional.empty();
    }
  }

  private static Optional<List<TablePattern>> tables(ConfigNode user) {
    Optional<List<String>> texts = user.strings(TABLES, TablePattern.HINT);
    if (texts.isEmpty()) {
      return Optional.empty();
    }
    List<TablePattern> patterns = new ArrayList<>();
    for (String text : texts.get()) {
      if (!TablePattern.isValid(text)) {
        user.reject(TABLES, "\"" + text + "\" is not a table pattern; " + TablePattern.HINT);
        return Optional.empty();
      }
      patterns.add(new TablePattern(text));
    }
    return Optional.of(patterns);
  }

  private static Optional<TlsConfig> bindTls(ConfigNode tls) {
    Optional<Path> certificate = file(tls, CERTIFICATE_FILE, "the PEM certificate chain");
    Optional<Path> key = file(tls, PRIVATE_KEY_FILE, "the PEM (PKCS#8) private key");
    Optional<String> password = tls.secret(PRIVATE_KEY_PASSWORD, "expected the key's password");
    boolean hasCertificate = tls.isSet(CERTIFICATE_FILE);
    boolean hasKey = tls.isSet(PRIVATE_KEY_FILE);
    if (hasCertificate != hasKey) {
      String missing = hasCertificate ? PRIVATE_KEY_FILE : CERTIFICATE_FILE;
      tls.context()
          .missing(
              tls.keyPath(missing),
              "TLS needs both "
                  + tls.keyPath(CERTIFICATE_FILE)
                  + " and "
                  + tls.keyPath(PRIVATE_KEY_FILE)
                  + "; set both, or neither for plain HTTP");
    }
    if (!hasKey && tls.isSet(PRIVATE_KEY_PASSWORD)) {
      tls.reject(PRIVATE_KEY_PASSWORD, "only with " + tls.keyPath(PRIVATE_KEY_FILE));
    }
    if (certificate.isEmpty() || key.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new TlsConfig(certificate.get(), key.get(), password));
  }

  /** A path that must name a readable file now: a typo found at start-up, not at first request. */
  private static Optional<Path> file(ConfigNode tls, String key, String what) {
    Optional<Path> path = tls.path(key, "expected the file holding " + what);
    if (path.isPresent() && !(Files.isRegularFile(path.get()) && Files.isReadable(path.get()))) {
      tls.reject(key, "no readable file there; it should hold " + what);
      return Optional.empty();
    }
    return path;
  }
}
