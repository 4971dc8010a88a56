/**
 * The web console the broker serves at {@code /} (docs/console.md): static ES modules and a style
 * sheet read from the class path, which call the HTTP API like any client.
 */
package io.shelfmark.broker.console;
