/**
 * Typed units for configuration values: {@link io.shelfmark.config.unit.DataSize} for byte amounts
 * and {@link io.shelfmark.config.unit.DurationFormat} for {@link java.time.Duration} text.
 */
package io.shelfmark.config.unit;
