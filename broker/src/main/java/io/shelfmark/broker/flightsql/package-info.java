/**
 * The broker's Arrow Flight SQL endpoint ({@code broker.flight-port}): Arrow's JDBC driver, ADBC
 * and Grafana's Flight SQL data source query Shelfmark through it, with the same planner, engine,
 * users, table permissions and TLS as the HTTP API. Results go out as typed Arrow record batches
 * (see {@link io.shelfmark.broker.flightsql.ArrowTypes} for the type mapping).
 */
package io.shelfmark.broker.flightsql;
