# Inputs of Shelfmark's reference deployment. Only the first block (placement, buckets, catalog,
# artifact) has no defaults; everything below it has defaults sized for 1 coordinator
# (m7g.xlarge) and 4 servers (r6gd.4xlarge).

# ---------------------------------------------------------------------------------------------
# Placement
# ---------------------------------------------------------------------------------------------

variable "region" {
  description = "AWS region to deploy into. The data bucket, segment bucket and catalog are expected in the same region (written as storage.region)."
  type        = string

  validation {
    condition     = can(regex("^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-[0-9]+$", var.region))
    error_message = "region must be an AWS region name such as eu-west-1."
  }
}

variable "cluster_name" {
  description = "Cluster name: written as cluster-name and used to name and tag every resource. Letters, digits, '.', '_' and '-', starting with a letter or digit."
  type        = string
  default     = "shelfmark"

  validation {
    # Same rule as ClusterConfig.CLUSTER_NAME_PATTERN, shortened to 40 so that derived IAM and
    # security group names stay within AWS limits.
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$", var.cluster_name))
    error_message = "cluster_name must be 1-40 letters, digits, '.', '_' or '-', starting with a letter or digit."
  }
}

variable "vpc_id" {
  description = "ID of the existing VPC the cluster runs in."
  type        = string

  validation {
    condition     = can(regex("^vpc-[0-9a-f]+$", var.vpc_id))
    error_message = "vpc_id must look like vpc-0123456789abcdef0."
  }
}

variable "subnet_ids" {
  description = "Private subnets of vpc_id (with a route to S3, SSM and the catalog, e.g. via NAT or VPC endpoints). The coordinator goes in the first; servers are spread over all of them in order."
  type        = list(string)

  validation {
    condition     = length(var.subnet_ids) > 0 && alltrue([for id in var.subnet_ids : can(regex("^subnet-[0-9a-f]+$", id))])
    error_message = "subnet_ids must hold at least one ID such as subnet-0123456789abcdef0."
  }
}

variable "allowed_cidrs" {
  description = "IPv4 CIDR blocks allowed to reach the broker's HTTP SQL port (broker_http_port) on the coordinator, e.g. your VPN or the dashboards' subnets."
  type        = list(string)

  validation {
    condition     = alltrue([for cidr in var.allowed_cidrs : can(cidrnetmask(cidr))])
    error_message = "allowed_cidrs must be IPv4 CIDR blocks such as 10.0.0.0/16."
  }
}

variable "key_name" {
  description = "Optional EC2 key pair name for SSH. Leave null and use SSM Session Manager (enable_ssm_session_manager) instead."
  type        = string
  default     = null
}

variable "ssh_allowed_cidrs" {
  description = "IPv4 CIDR blocks allowed to SSH (port 22) to every instance. Empty (the default) opens no SSH port."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for cidr in var.ssh_allowed_cidrs : can(cidrnetmask(cidr))])
    error_message = "ssh_allowed_cidrs must be IPv4 CIDR blocks such as 10.0.0.0/16."
  }
}

variable "enable_ssm_session_manager" {
  description = "Attach AmazonSSMManagedInstanceCore to the instance role, so operators can open a shell through SSM Session Manager without SSH."
  type        = bool
  default     = true
}

# ---------------------------------------------------------------------------------------------
# Data, segments and catalog
# ---------------------------------------------------------------------------------------------

variable "data_bucket" {
  description = "Name (not ARN, not URL) of the existing S3 bucket holding the Iceberg tables' Parquet data and metadata. Shelfmark only reads it."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.data_bucket))
    error_message = "data_bucket must be a bucket name such as my-lake (no s3:// and no path)."
  }
}

variable "segment_bucket" {
  description = "Name of the existing S3 bucket where Shelfmark writes its index-only segments (may be the data bucket)."
  type        = string

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.segment_bucket))
    error_message = "segment_bucket must be a bucket name such as my-lake (no s3:// and no path)."
  }
}

variable "segment_prefix" {
  description = "Key prefix inside segment_bucket for segments, without leading or trailing '/'. The instances may read, write and delete only under it."
  type        = string
  default     = "_shelfmark"

  validation {
    condition     = can(regex("^[^/](.*[^/])?$", var.segment_prefix))
    error_message = "segment_prefix must be non-empty and must not start or end with '/' (e.g. _shelfmark/prod)."
  }
}

variable "catalog_type" {
  description = "Type of the existing Iceberg catalog: jdbc or rest."
  type        = string

  validation {
    condition     = contains(["jdbc", "rest"], var.catalog_type)
    error_message = "catalog_type must be jdbc or rest."
  }
}

variable "catalog_name" {
  description = "The catalog's name, as table configs refer to it (catalog.name)."
  type        = string
  default     = "shelfmark"

  validation {
    condition     = trimspace(var.catalog_name) != ""
    error_message = "catalog_name must not be blank."
  }
}

variable "catalog_uri" {
  description = "The catalog's URI: a JDBC URL (jdbc:postgresql://host:5432/iceberg) for jdbc, the base URL (https://catalog.example.com/api/catalog) for rest. No credentials in it: see catalog_secret_ssm_parameter."
  type        = string

  validation {
    condition = (
      (var.catalog_type == "jdbc" && startswith(var.catalog_uri, "jdbc:"))
      || (var.catalog_type == "rest" && can(regex("^https?://[^/]+", var.catalog_uri)))
    )
    error_message = "catalog_uri must be a jdbc: URL when catalog_type is jdbc, or an http(s):// URL when it is rest."
  }

  validation {
    condition     = !can(regex("(?i)(password|secret|token)=", var.catalog_uri)) && !can(regex("://[^/@]+:[^/@]+@", var.catalog_uri))
    error_message = "catalog_uri must not carry credentials; store them in SSM and name the parameter in catalog_secret_ssm_parameter."
  }
}

variable "catalog_warehouse" {
  description = "The catalog's warehouse location, such as s3://my-lake/warehouse. Required for jdbc, optional for rest (null leaves it to the catalog)."
  type        = string
  default     = null

  validation {
    condition     = var.catalog_type != "jdbc" || var.catalog_warehouse != null
    error_message = "catalog_warehouse is required when catalog_type is jdbc."
  }

  validation {
    condition     = var.catalog_warehouse == null || can(regex("^s3a?://[^/]+", coalesce(var.catalog_warehouse, "-")))
    error_message = "catalog_warehouse must be an s3:// location such as s3://my-lake/warehouse."
  }
}

variable "catalog_properties" {
  description = "Extra, non-secret Iceberg catalog properties written under catalog.properties, such as { \"jdbc.user\" = \"shelfmark\" }. Secrets never go here."
  type        = map(string)
  default     = {}

  validation {
    # Same words as CatalogConfig.isSecretProperty: such values come from SSM only.
    condition     = alltrue([for name in keys(var.catalog_properties) : !can(regex("(?i)(password|secret|token|credential)", name))])
    error_message = "catalog_properties must not hold secrets (a name mentions password, secret, token or credential); put the secret in SSM and set catalog_secret_ssm_parameter."
  }
}

variable "catalog_secret_ssm_parameter" {
  description = "Name of an existing SSM parameter (SecureString) holding the catalog secret, such as /shelfmark/prod/catalog-password. Read at every service start and handed to Shelfmark through the environment; never written to disk or to user data. Null when the catalog needs no secret."
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
  description = "Shelfmark version being deployed, such as 0.1.0. Names the install directory (/opt/shelfmark/<version>) and tags the instances."
  type        = string

  validation {
    condition     = can(regex("^[0-9]+\\.[0-9]+\\.[0-9]+([-+][0-9A-Za-z.-]+)?$", var.shelfmark_version))
    error_message = "shelfmark_version must be a version such as 0.1.0 or 0.2.0-rc1."
  }
}

variable "artifact_url" {
  description = "S3 URL of the Shelfmark distribution tarball, such as s3://my-artifacts/shelfmark/shelfmark-0.1.0.tar.gz. It must hold one top-level directory with bin/shelfmark inside. The instances get read access to exactly this object."
  type        = string

  validation {
    condition     = can(regex("^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]/.+\\.(tar\\.gz|tgz)$", var.artifact_url))
    error_message = "artifact_url must be an S3 URL of a .tar.gz file, such as s3://my-artifacts/shelfmark/shelfmark-0.1.0.tar.gz."
  }
}

variable "jdk_package" {
  description = "The JDK 25 package installed with dnf. Amazon Corretto from the distribution repository; if that repository lacks it, the Corretto yum repository is added."
  type        = string
  default     = "java-25-amazon-corretto-devel"
}

variable "ami_id" {
  description = "Optional arm64 AMI to use instead of the newest Amazon Linux 2023 arm64 AMI. The user data assumes Amazon Linux 2023 (dnf, aws CLI)."
  type        = string
  default     = null

  validation {
    condition     = var.ami_id == null || can(regex("^ami-[0-9a-f]+$", coalesce(var.ami_id, "-")))
    error_message = "ami_id must look like ami-0123456789abcdef0."
  }
}

# ---------------------------------------------------------------------------------------------
# Sizing
# ---------------------------------------------------------------------------------------------

variable "coordinator_instance_type" {
  description = "Instance type of the coordinator (controller + broker). Must be Graviton (arm64)."
  type        = string
  default     = "m7g.xlarge"

  validation {
    condition     = can(regex("^[a-z]+[0-9]+g[a-z]*\\.[0-9a-z]+$", var.coordinator_instance_type))
    error_message = "coordinator_instance_type must be a Graviton type such as m7g.xlarge (the AMI is arm64)."
  }
}

variable "server_instance_type" {
  description = "Instance type of the servers. Must be Graviton (arm64) with NVMe instance storage, such as r6gd, m7gd, c7gd, im4gn or is4gen."
  type        = string
  default     = "r6gd.4xlarge"

  validation {
    condition     = can(regex("^[a-z]+[0-9]+g[a-z]*\\.[0-9a-z]+$", var.server_instance_type))
    error_message = "server_instance_type must be a Graviton type with instance storage such as r6gd.4xlarge (the AMI is arm64)."
  }
}

variable "server_count" {
  description = "Number of servers."
  type        = number
  default     = 4

  validation {
    condition     = var.server_count >= 1 && var.server_count <= 100 && floor(var.server_count) == var.server_count
    error_message = "server_count must be a whole number from 1 to 100."
  }
}

variable "coordinator_root_volume_gib" {
  description = "Size of the coordinator's gp3 root volume in GiB. It holds the controller's local metadata, the cache and logs under /var/lib/shelfmark."
  type        = number
  default     = 100

  validation {
    condition     = var.coordinator_root_volume_gib >= 20
    error_message = "coordinator_root_volume_gib must be at least 20."
  }
}

variable "server_root_volume_gib" {
  description = "Size of the servers' gp3 root volume in GiB (OS, JDK, distribution, logs; the data lives on NVMe)."
  type        = number
  default     = 30

  validation {
    condition     = var.server_root_volume_gib >= 20
    error_message = "server_root_volume_gib must be at least 20."
  }
}

variable "controller_heap" {
  description = "JVM heap (-Xmx, -Xms) of the controller process on the coordinator, such as 4g."
  type        = string
  default     = "4g"

  validation {
    condition     = can(regex("^[0-9]+[mg]$", var.controller_heap))
    error_message = "controller_heap must be a JVM size such as 4g or 3072m."
  }
}

variable "broker_heap" {
  description = "JVM heap (-Xmx, -Xms) of the broker process on the coordinator, such as 8g. Controller and broker heaps together must leave room for the OS on the coordinator."
  type        = string
  default     = "8g"

  validation {
    condition     = can(regex("^[0-9]+[mg]$", var.broker_heap))
    error_message = "broker_heap must be a JVM size such as 8g or 8192m."
  }
}

variable "server_heap" {
  description = "JVM heap (-Xmx, -Xms) of each server process, such as 64g. It holds the memory cache tier; the rest of the instance's memory is left to the OS page cache for mapped segments."
  type        = string
  default     = "64g"

  validation {
    condition     = can(regex("^[0-9]+[mg]$", var.server_heap))
    error_message = "server_heap must be a JVM size such as 64g."
  }
}

variable "coordinator_cache_memory_max_size" {
  description = "cache.memory.max-size on the coordinator (Shelfmark size syntax: 512MB, 2GiB)."
  type        = string
  default     = "1GiB"

  validation {
    condition     = can(regex("^[0-9]+(\\.[0-9]+)?([KMGTP]i?B|B)?$", var.coordinator_cache_memory_max_size))
    error_message = "coordinator_cache_memory_max_size must be a size such as 512MB or 2GiB."
  }
}

variable "coordinator_cache_disk_max_size" {
  description = "cache.disk.max-size on the coordinator; must fit on its root volume."
  type        = string
  default     = "20GiB"

  validation {
    condition     = can(regex("^[0-9]+(\\.[0-9]+)?([KMGTP]i?B|B)?$", var.coordinator_cache_disk_max_size))
    error_message = "coordinator_cache_disk_max_size must be a size such as 20GiB."
  }
}

variable "server_cache_memory_max_size" {
  description = "cache.memory.max-size on each server; must be well below server_heap."
  type        = string
  default     = "32GiB"

  validation {
    condition     = can(regex("^[0-9]+(\\.[0-9]+)?([KMGTP]i?B|B)?$", var.server_cache_memory_max_size))
    error_message = "server_cache_memory_max_size must be a size such as 32GiB."
  }
}

variable "server_cache_disk_max_size" {
  description = "cache.disk.max-size on each server. The NVMe volume (about 884 GiB on r6gd.4xlarge) holds this cache and the pinned segments, so leave room for the segments."
  type        = string
  default     = "640GiB"

  validation {
    condition     = can(regex("^[0-9]+(\\.[0-9]+)?([KMGTP]i?B|B)?$", var.server_cache_disk_max_size))
    error_message = "server_cache_disk_max_size must be a size such as 640GiB."
  }
}

# ---------------------------------------------------------------------------------------------
# Ports (the defaults are PortsConfig's defaults)
# ---------------------------------------------------------------------------------------------

variable "broker_http_port" {
  description = "broker.http-port: the HTTP SQL API, reachable from allowed_cidrs and from cluster members."
  type        = number
  default     = 8099

  validation {
    condition     = var.broker_http_port >= 1024 && var.broker_http_port <= 65535
    error_message = "broker_http_port must be from 1024 to 65535."
  }
}

variable "server_rpc_port" {
  description = "server.rpc-port: the servers' RPC port, reachable from cluster members only."
  type        = number
  default     = 8098

  validation {
    condition     = var.server_rpc_port >= 1024 && var.server_rpc_port <= 65535 && var.server_rpc_port != var.broker_http_port
    error_message = "server_rpc_port must be from 1024 to 65535 and differ from broker_http_port."
  }
}

variable "controller_http_port" {
  description = "controller.http-port: the controller's HTTP port, reachable from cluster members only."
  type        = number
  default     = 8097

  validation {
    condition     = var.controller_http_port >= 1024 && var.controller_http_port <= 65535 && !contains([var.broker_http_port, var.server_rpc_port], var.controller_http_port)
    error_message = "controller_http_port must be from 1024 to 65535 and differ from the broker and server ports."
  }
}

variable "tags" {
  description = "Extra tags for every resource."
  type        = map(string)
  default     = {}
}
