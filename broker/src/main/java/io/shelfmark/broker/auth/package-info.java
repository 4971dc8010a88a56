/**
 * Who is calling the broker and what they may do: {@link io.shelfmark.broker.auth.Authenticator}
 * checks HTTP Basic passwords and bearer tokens against {@code security.users}, and a {@link
 * io.shelfmark.broker.auth.Principal} carries the caller's roles and readable tables to the points
 * that enforce them (onboarding, table listings, the query path after planning).
 */
package io.shelfmark.broker.auth;
