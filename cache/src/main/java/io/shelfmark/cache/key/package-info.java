/**
 * Cache keys: object identity (path + size, plus the ETag for objects that can change) and byte
 * range. See {@link io.shelfmark.cache.key.ObjectIdentity} for which identity to use when.
 */
package io.shelfmark.cache.key;
