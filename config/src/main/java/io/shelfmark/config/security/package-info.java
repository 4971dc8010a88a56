/**
 * Who may use a Shelfmark node's HTTP API and how it is reached: users with hashed passwords or
 * bearer tokens ({@link io.shelfmark.config.security.UserConfig}), their roles and readable tables,
 * and TLS ({@link io.shelfmark.config.security.TlsConfig}). Config keys {@code security.*}; see
 * docs/security.md.
 */
package io.shelfmark.config.security;
