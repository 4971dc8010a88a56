/** What the broker reports about the processes of the deployment: {@code GET /nodes}. */
package io.shelfmark.broker.node;
