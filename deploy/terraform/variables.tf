# Inputs of Shelfmark's reference deployment. Only the first blocks (region, tables, segment store,
# catalog, distribution) need values; the rest has defaults sized for 1 coordinator (m7g.xlarge)
# and 4 servers (r6gd.4xlarge) in a new VPC.

# ---------------------------------------------------------------------------------------------
# Placement and network
# ---------------------------------------------------------------------------------------------

variable "region" {
  description = "AWS region to deploy into. The tables, the segment store and the catalog are expected in the same region (written as storage.region)."
  type        = string

  validation {
    condition     = can(regex("^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-[0-9]+$", var.region))
    error_message = "region must be an AWS region name such as us-east-1."
  }
}

variable "cluster_name" {
  description = "Cluster name: written as cluster-name and used to name and tag every resource. Letters, digits, '.', '_' and '-', starting with a letter or digit."
  type        = string
  default     = "shelfmark"

  validation {
    # ClusterConfig's rule, shortened to 40 so that derived IAM and security group names fit.
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$", var.cluster_name))
    error_message = "cluster_name must be 1-40 letters, digits, '.', '_' or '-', starting with a letter or digit."
  }
}

variable "vpc_id" {
  description = "Existing VPC to deploy into (then subnet_ids is required). Null (the default) creates a VPC with private subnets, an S3 gateway endpoint and the interface endpoints of interface_endpoint_services."
  type        = string
  default     = null

  validation {
    condition     = var.vpc_id == null || can(regex("^vpc-[0-9a-f]+$", coalesce(var.vpc_id, "-")))
    error_message = "vpc_id must look like vpc-0123456789abcdef0, or be null to create a VPC."
  }
}

variable "subnet_ids" {
  description = "Private subnets of vpc_id, routed to S3, SSM and the catalog (VPC endpoints or NAT). The coordinator goes in the first; servers are spread over all in order. Leave empty when a VPC is created."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for id in var.subnet_ids : can(regex("^subnet-[0-9a-f]+$", id))])
    error_message = "subnet_ids must hold IDs such as subnet-0123456789abcdef0."
  }

  validation {
    condition     = (var.vpc_id == null) == (length(var.subnet_ids) == 0)
    error_message = "subnet_ids must list the private subnets of vpc_id when vpc_id is set, and be empty when it is null (a VPC is created)."
  }
}

variable "vpc_cidr" {
  description = "IPv4 CIDR block of the created VPC (vpc_id null); split into /20 subnets."
  type        = string
  default     = "10.42.0.0/16"

  validation {
    # A regex rather than arithmetic on the prefix length: && does not short-circuit in HCL.
    condition     = can(cidrnetmask(var.vpc_cidr)) && can(regex("/(1[6-9]|2[0-4])$", var.vpc_cidr))
    error_message = "vpc_cidr must be an IPv4 CIDR block from /16 to /24, such as 10.42.0.0/16."
  }
}

variable "availability_zone_count" {
  description = "Availability zones of the created VPC, one private subnet each; servers are spread over them."
  type        = number
  default     = 2

  validation {
    condition     = var.availability_zone_count >= 1 && var.availability_zone_count <= 6 && floor(var.availability_zone_count) == var.availability_zone_count
    error_message = "availability_zone_count must be a whole number from 1 to 6."
  }
}

variable "enable_nat_gateway" {
  description = "Give the created VPC a NAT gateway (one public subnet) so members reach the internet: needed when the catalog or the tarball is outside AWS. Costs an hourly fee plus data processing."
  type        = bool
  default     = false
}

variable "interface_endpoint_services" {
  description = "Services the created VPC reaches through interface endpoints. The defaults serve SSM Session Manager and the catalog secret; glue is added when catalog_type is glue."
  type        = list(string)
  default     = ["ssm", "ssmmessages", "ec2messages"]

  validation {
    condition     = alltrue([for service in var.interface_endpoint_services : can(regex("^[a-z0-9.-]+$", service))])
    error_message = "interface_endpoint_services must hold service short names such as ssm or glue."
  }
}

variable "allowed_cidrs" {
  description = "IPv4 CIDR blocks allowed to the broker's client ports (broker_http_port, broker_flight_port) on the coordinator, e.g. your VPN or the dashboards' subnets. Nothing else is reachable from outside the cluster."
  type        = list(string)

  validation {
    condition     = length(var.allowed_cidrs) > 0 && alltrue([for cidr in var.allowed_cidrs : can(cidrnetmask(cidr))])
    error_message = "allowed_cidrs must hold at least one IPv4 CIDR block such as 10.0.0.0/16."
  }
}

variable "ssh_allowed_cidrs" {
  description = "IPv4 CIDR blocks allowed to SSH (22) to every member. Empty (the default) opens no SSH port: use SSM Session Manager."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for cidr in var.ssh_allowed_cidrs : can(cidrnetmask(cidr)) && cidr != "0.0.0.0/0"])
    error_message = "ssh_allowed_cidrs must be IPv4 CIDR blocks such as 10.0.0.0/16, and not 0.0.0.0/0."
  }
}

variable "key_name" {
  description = "Optional EC2 key pair for SSH. Leave null and use SSM Session Manager (enable_ssm_session_manager) instead."
  type        = string
  default     = null
}

variable "enable_ssm_session_manager" {
  description = "Attach AmazonSSMManagedInstanceCore to the members' role, so operators open shells and port forwards through SSM Session Manager without SSH."
  type        = bool
  default     = true
}

# ---------------------------------------------------------------------------------------------
# Tables, segments and catalog
# ---------------------------------------------------------------------------------------------

variable "table_locations" {
  description = "s3:// prefixes holding the indexed tables' data and metadata, such as [\"s3://acme-lake/warehouse/obs.db/metrics\"]. The members may list and read under them only."
  type        = list(string)

  validation {
    condition     = length(var.table_locations) > 0 && alltrue([for url in var.table_locations : can(regex("^s3a?://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/.*)?$", url))])
    error_message = "table_locations must hold at least one s3:// location such as s3://acme-lake/warehouse/obs.db/metrics."
  }
}

variable "segment_store" {
  description = "s3:// prefix where Shelfmark writes its index-only segments, such as s3://acme-lake/_shelfmark/prod (segment-store). The members may read, write and delete under it only."
  type        = string

  validation {
    condition     = can(regex("^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]/[^/].*$", var.segment_store))
    error_message = "segment_store must be an s3:// URL with a prefix, such as s3://acme-lake/_shelfmark/prod."
  }
}

variable "catalog_type" {
  description = "Type of the existing Iceberg catalog: jdbc, rest or glue."
  type        = string

  validation {
    condition     = contains(["jdbc", "rest", "glue"], var.catalog_type)
    error_message = "catalog_type must be jdbc, rest or glue."
  }
}

variable "catalog_name" {
  description = "The catalog's name, as table configs refer to it (catalog.name)."
  type        = string
  default     = "lake"

  validation {
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9._-]*$", var.catalog_name))
    error_message = "catalog_name must be letters, digits, '.', '_' or '-', such as lake."
  }
}

variable "catalog_uri" {
  description = "The catalog's URI: a JDBC URL (jdbc:postgresql://host:5432/iceberg) for jdbc, the base URL (https://catalog.example.com/api/catalog) for rest, null for glue. No credentials in it: see catalog_secret_ssm_parameter."
  type        = string
  default     = null

  validation {
    condition = (
      (var.catalog_type == "glue" && var.catalog_uri == null)
      || (var.catalog_type == "jdbc" && startswith(coalesce(var.catalog_uri, "-"), "jdbc:"))
      || (var.catalog_type == "rest" && can(regex("^https?://[^/]+", coalesce(var.catalog_uri, "-"))))
    )
    error_message = "catalog_uri must be a jdbc: URL for jdbc, an http(s):// URL for rest, and null for glue."
  }

  validation {
    condition     = !can(regex("(?i)(password|secret|token)=", coalesce(var.catalog_uri, "-"))) && !can(regex("://[^/@]+:[^/@]+@", coalesce(var.catalog_uri, "-")))
    error_message = "catalog_uri must not carry credentials; store them in SSM and name the parameter in catalog_secret_ssm_parameter."
  }
}

variable "catalog_warehouse" {
  description = "The catalog's warehouse location, such as s3://acme-lake/warehouse. Required for jdbc; optional for rest and glue (null leaves it to the catalog)."
  type        = string
  default     = null

  validation {
    condition     = var.catalog_type != "jdbc" || var.catalog_warehouse != null
    error_message = "catalog_warehouse is required when catalog_type is jdbc."
  }

  validation {
    condition     = var.catalog_warehouse == null || can(regex("^s3a?://[^/]+", coalesce(var.catalog_warehouse, "-")))
    error_message = "catalog_warehouse must be an s3:// location such as s3://acme-lake/warehouse."
  }
}

variable "catalog_properties" {
  description = "Extra, non-secret Iceberg catalog properties (catalog.properties), such as { \"jdbc.user\" = \"shelfmark\" }. Secrets never go here."
  type        = map(string)
  default     = {}

  validation {
    # The words CatalogConfig treats as secret: such values come from SSM only.
    condition     = alltrue([for name in keys(var.catalog_properties) : !can(regex("(?i)(password|secret|token|credential)", name))])
    error_message = "catalog_properties must not hold secrets (a name mentions password, secret, token or credential); put the secret in SSM and set catalog_secret_ssm_parameter."
  }
}

variable "glue_catalog_id" {
  description = "Glue only: the Glue catalog ID (the account that owns the catalog), written as the glue.id catalog property. Null uses this account's catalog."
  type        = string
  default     = null

  validation {
    condition     = var.glue_catalog_id == null || can(regex("^[0-9]{12}$", coalesce(var.glue_catalog_id, "-")))
    error_message = "glue_catalog_id must be a 12-digit account ID, or null for this account."
  }
}

variable "glue_databases" {
  description = "Glue only: the Glue databases whose tables Shelfmark indexes. The members may read these databases and their tables, nothing else in Glue."
  type        = list(string)
  default     = []

  validation {
    condition     = (var.catalog_type == "glue") == (length(var.glue_databases) > 0)
    error_message = "glue_databases must name at least one database when catalog_type is glue, and be empty otherwise."
  }
}

variable "catalog_secret_ssm_parameter" {
  description = "Name of an existing SSM SecureString parameter holding the catalog secret, such as /shelfmark/prod/catalog-password. Read by the bootstrap with the instance role; never in Terraform state or user data. Null when the catalog needs no secret (Glue never does)."
  type        = string
  default     = null

  validation {
    condition     = var.catalog_secret_ssm_parameter == null || can(regex("^[A-Za-z0-9_.\\-/]+$", coalesce(var.catalog_secret_ssm_parameter, "-")))
    error_message = "catalog_secret_ssm_parameter must be a parameter name such as /shelfmark/prod/catalog-password (not an ARN)."
  }
}

variable "catalog_secret_property" {
  description = "The catalog property the SSM secret fills. Null picks jdbc.password for jdbc and credential (client_id:client_secret) for rest; use token for a REST bearer token."
  type        = string
  default     = null

  validation {
    condition     = var.catalog_secret_property == null || can(regex("^[A-Za-z0-9][A-Za-z0-9._-]*$", coalesce(var.catalog_secret_property, "-")))
    error_message = "catalog_secret_property must be a property name such as jdbc.password."
  }
}

variable "catalog_secret_kms_key_arn" {
  description = "ARN of the customer-managed KMS key encrypting the SSM parameter, if any. Null when it uses the AWS-managed aws/ssm key."
  type        = string
  default     = null
}

# ---------------------------------------------------------------------------------------------
# Shelfmark distribution
# ---------------------------------------------------------------------------------------------

variable "shelfmark_version" {
  description = "Version of the distribution tarball, such as 0.1.0 (SHELFMARK_VERSION of the bootstrap)."
  type        = string

  validation {
    condition     = can(regex("^[0-9]+\\.[0-9]+\\.[0-9]+([-+][0-9A-Za-z.-]+)?$", var.shelfmark_version))
    error_message = "shelfmark_version must be a version such as 0.1.0 or 0.2.0-SNAPSHOT."
  }
}

variable "dist_url" {
  description = "Where the members download the distribution tarball: s3://bucket/key (read with the instance role, which may read exactly this object) or https://."
  type        = string

  validation {
    condition     = can(regex("^(s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]/|https://).+\\.(tar\\.gz|tgz)$", var.dist_url))
    error_message = "dist_url must be an s3:// or https:// URL of a .tar.gz file, such as s3://acme-artifacts/shelfmark/shelfmark-0.1.0.tar.gz."
  }
}

variable "ami_id" {
  description = "Optional arm64 Amazon Linux 2023 AMI to pin instead of the newest one (the bootstrap assumes dnf and the aws CLI)."
  type        = string
  default     = null

  validation {
    condition     = var.ami_id == null || can(regex("^ami-[0-9a-f]+$", coalesce(var.ami_id, "-")))
    error_message = "ami_id must look like ami-0123456789abcdef0."
  }
}

# ---------------------------------------------------------------------------------------------
# Sizing (memory, heaps and cache sizes are derived by the bootstrap from the instance)
# ---------------------------------------------------------------------------------------------

variable "coordinator_instance_type" {
  description = "Instance type of the coordinator (ZooKeeper, controller, broker). Graviton (arm64) only: the AMI is arm64."
  type        = string
  default     = "m7g.xlarge"

  validation {
    condition     = can(regex("^[a-z]+[0-9]+g[a-z]*\\.[0-9a-z]+$", var.coordinator_instance_type))
    error_message = "coordinator_instance_type must be a Graviton type such as m7g.xlarge (the AMI is arm64)."
  }
}

variable "server_instance_type" {
  description = "Instance type of the servers: Graviton (arm64) with NVMe instance storage (a *gd type such as r6gd.4xlarge, m7gd or c7gd; or im4gn, is4gen)."
  type        = string
  default     = "r6gd.4xlarge"

  validation {
    condition     = can(regex("^([a-z]+[0-9]+g[a-z]*d[a-z]*|im4gn|is4gen)\\.[0-9a-z]+$", var.server_instance_type))
    error_message = "server_instance_type must be a Graviton type with instance storage such as r6gd.4xlarge (the AMI is arm64; segments live on NVMe)."
  }
}

variable "server_count" {
  description = "Number of servers. Each table's files are replicated on 2 servers by default, so 2 is the least that survives one server's loss."
  type        = number
  default     = 4

  validation {
    condition     = var.server_count >= 1 && var.server_count <= 100 && floor(var.server_count) == var.server_count
    error_message = "server_count must be a whole number from 1 to 100."
  }
}

variable "coordinator_root_volume_gib" {
  description = "Size of the coordinator's gp3 root volume in GiB: OS, distribution, ZooKeeper data, logs and the data directory."
  type        = number
  default     = 100

  validation {
    condition     = var.coordinator_root_volume_gib >= 20
    error_message = "coordinator_root_volume_gib must be at least 20."
  }
}

variable "server_root_volume_gib" {
  description = "Size of the servers' gp3 root volume in GiB (OS, distribution, logs; the data directory is on NVMe)."
  type        = number
  default     = 30

  validation {
    condition     = var.server_root_volume_gib >= 20
    error_message = "server_root_volume_gib must be at least 20."
  }
}

# ---------------------------------------------------------------------------------------------
# Ports (the defaults are PortsConfig's and ZooKeeper's)
# ---------------------------------------------------------------------------------------------

variable "broker_http_port" {
  description = "broker.http-port: the HTTP SQL API (Pinot's), reachable from allowed_cidrs."
  type        = number
  default     = 8099

  validation {
    condition     = var.broker_http_port >= 1024 && var.broker_http_port <= 65535
    error_message = "broker_http_port must be from 1024 to 65535."
  }
}

variable "broker_flight_port" {
  description = "broker.flight-port: Arrow Flight SQL (JDBC, ADBC), reachable from allowed_cidrs."
  type        = number
  default     = 8815

  validation {
    condition     = var.broker_flight_port >= 1024 && var.broker_flight_port <= 65535
    error_message = "broker_flight_port must be from 1024 to 65535."
  }
}

variable "server_rpc_port" {
  description = "server.rpc-port: the servers' Arrow Flight RPC port, reachable from cluster members only."
  type        = number
  default     = 8098

  validation {
    condition     = var.server_rpc_port >= 1024 && var.server_rpc_port <= 65535
    error_message = "server_rpc_port must be from 1024 to 65535."
  }
}

variable "controller_http_port" {
  description = "controller.http-port: the controller's admin API, reachable from cluster members only (operators use an SSM port forward)."
  type        = number
  default     = 8097

  validation {
    condition     = var.controller_http_port >= 1024 && var.controller_http_port <= 65535
    error_message = "controller_http_port must be from 1024 to 65535."
  }
}

variable "zookeeper_port" {
  description = "ZooKeeper's client port on the coordinator, reachable from cluster members only."
  type        = number
  default     = 2181

  validation {
    condition = (
      var.zookeeper_port >= 1024 && var.zookeeper_port <= 65535
      && length(distinct([var.broker_http_port, var.broker_flight_port, var.server_rpc_port, var.controller_http_port, var.zookeeper_port])) == 5
    )
    error_message = "zookeeper_port must be from 1024 to 65535, and the five ports (broker HTTP and Flight, server RPC, controller, ZooKeeper) must differ."
  }
}

variable "zookeeper_connect" {
  description = "host:port[,host:port] of an external ZooKeeper ensemble. Null (the default) runs ZooKeeper on the coordinator; an external ensemble keeps the cluster state when the coordinator is replaced."
  type        = string
  default     = null

  validation {
    condition     = var.zookeeper_connect == null || can(regex("^[A-Za-z0-9.-]+:[0-9]+(,[A-Za-z0-9.-]+:[0-9]+)*$", coalesce(var.zookeeper_connect, "-")))
    error_message = "zookeeper_connect must be host:port entries separated by commas, such as zk1:2181,zk2:2181,zk3:2181."
  }
}

variable "tags" {
  description = "Extra tags for every resource (added to the provider's default_tags)."
  type        = map(string)
  default     = {}
}
