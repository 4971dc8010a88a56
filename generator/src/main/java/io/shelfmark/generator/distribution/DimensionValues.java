package io.shelfmark.generator.distribution;

import java.util.List;
import java.util.Locale;

/**
 * The keys of the {@code dimensions} map and the values each key takes. Value strings are built
 * once (about 170,000 of them, ~10 MB) so rows reuse them instead of formatting per row. Immutable.
 *
 * <pre>
 * key      values                                   present in
 * service  50 service names, Zipf(1)                every row
 * region   10 cloud regions, uniform                every row
 * node     node-000000 .. node-099999, uniform      ~95% of rows
 * env      prod 70%, staging 20%, dev 10%           optional, in key order:
 * az       region + a|b|c                           a row with k optional keys
 * cluster  cluster-00 .. cluster-39                 has the first k of
 * pod      pod-00000 .. pod-49999 (hex)             env, az, cluster, pod, host, team
 * host     host-00000 .. host-19999
 * team     12 team names
 * </pre>
 */
public final class DimensionValues {
  public static final String SERVICE = "service";
  public static final String REGION = "region";
  public static final String NODE = "node";
  public static final String ENV = "env";
  public static final String AZ = "az";
  public static final String CLUSTER = "cluster";
  public static final String POD = "pod";
  public static final String HOST = "host";
  public static final String TEAM = "team";

  /** All keys, in the order a row holds them: service, region, node, then the optional keys. */
  public static final List<String> KEYS =
      List.of(SERVICE, REGION, NODE, ENV, AZ, CLUSTER, POD, HOST, TEAM);

  /** The index in {@link #KEYS} of the first optional key ({@link #ENV}). */
  static final int FIRST_OPTIONAL_KEY = 3;

  public static final int NODE_COUNT = 100_000;

  /**
   * The node of the benchmark's needle query Q4. No generated node looks like it ({@code
   * node-NNNNNN}), so only the rows {@link NeedlePlan} places carry it.
   */
  public static final String NEEDLE_NODE = "xyz";

  static final List<String> SERVICES =
      List.of(
          "checkout",
          "cart",
          "payments",
          "search",
          "auth",
          "catalog",
          "inventory",
          "shipping",
          "pricing",
          "recommendations",
          "notifications",
          "email",
          "sms",
          "billing",
          "invoicing",
          "accounts",
          "profile",
          "sessions",
          "gateway",
          "edge-proxy",
          "cdn-origin",
          "media",
          "thumbnails",
          "uploads",
          "analytics",
          "events",
          "ingest",
          "etl",
          "scheduler",
          "workers",
          "reports",
          "exports",
          "imports",
          "audit",
          "compliance",
          "fraud",
          "risk",
          "ledger",
          "wallet",
          "loyalty",
          "coupons",
          "reviews",
          "ratings",
          "feeds",
          "timeline",
          "chat",
          "presence",
          "geo",
          "maps",
          "translations");

  static final List<String> REGIONS =
      List.of(
          "us-east-1",
          "us-east-2",
          "us-west-1",
          "us-west-2",
          "eu-west-1",
          "eu-central-1",
          "eu-north-1",
          "ap-southeast-1",
          "ap-northeast-1",
          "sa-east-1");

  static final List<String> TEAMS =
      List.of(
          "platform",
          "storage",
          "network",
          "payments",
          "growth",
          "search",
          "ml",
          "mobile",
          "web",
          "data",
          "security",
          "sre");

  static final List<String> ENVS = List.of("prod", "staging", "dev");

  static final List<String> NODES = numbered("node-%06d", NODE_COUNT);
  static final List<String> CLUSTERS = numbered("cluster-%02d", 40);
  static final List<String> PODS = numbered("pod-%05x", 50_000);
  static final List<String> HOSTS = numbered("host-%05d", 20_000);
  static final List<String> AZS = availabilityZones();

  private DimensionValues() {}

  /** The service names, most frequent first. */
  public static List<String> services() {
    return SERVICES;
  }

  /** The region names. */
  public static List<String> regions() {
    return REGIONS;
  }

  private static List<String> numbered(String pattern, int count) {
    String[] values = new String[count];
    for (int i = 0; i < count; i++) {
      values[i] = String.format(Locale.ROOT, pattern, i);
    }
    return List.of(values);
  }

  private static List<String> availabilityZones() {
    String[] zones = new String[REGIONS.size() * 3];
    for (int i = 0; i < zones.length; i++) {
      zones[i] = REGIONS.get(i / 3) + (char) ('a' + i % 3);
    }
    return List.of(zones);
  }
}
