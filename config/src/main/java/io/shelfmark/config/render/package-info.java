/**
 * Writing a role's cluster config from a node's settings: the one code path behind {@code cluster
 * up} (local processes) and {@code config render} (the bootstrap of a deployed node), so the
 * configs deployed have the shape the local cluster tests. {@link
 * io.shelfmark.config.render.NodeSizing} derives heaps and cache bounds from a node's memory and
 * disk.
 */
package io.shelfmark.config.render;
