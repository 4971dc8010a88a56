data "aws_partition" "current" {}

data "aws_caller_identity" "current" {}

# The newest Amazon Linux 2023 arm64 AMI (the "minimal" images are named al2023-ami-minimal-*
# and do not match). Pin var.ami_id to roll the OS deliberately.
data "aws_ami" "al2023_arm64" {
  most_recent = true
  owners      = ["amazon"]

  filter {
    name   = "name"
    values = ["al2023-ami-2023.*-arm64"]
  }

  filter {
    name   = "architecture"
    values = ["arm64"]
  }

  filter {
    name   = "virtualization-type"
    values = ["hvm"]
  }
}

# Used to check, before anything is created, that both types are arm64 and that the server
# type has NVMe instance storage.
data "aws_ec2_instance_type" "coordinator" {
  instance_type = var.coordinator_instance_type
}

data "aws_ec2_instance_type" "server" {
  instance_type = var.server_instance_type
}

locals {
  ami_id = coalesce(var.ami_id, data.aws_ami.al2023_arm64.id)

  partition = data.aws_partition.current.partition
  account   = data.aws_caller_identity.current.account_id

  # s3://bucket/key of the distribution tarball.
  artifact_bucket = regex("^s3://([^/]+)/(.+)$", var.artifact_url)[0]
  artifact_key    = regex("^s3://([^/]+)/(.+)$", var.artifact_url)[1]

  segment_store = "s3://${var.segment_bucket}/${var.segment_prefix}"

  # Buckets the cluster reads: the data bucket, plus the warehouse's bucket when it differs
  # (the Iceberg metadata files live under the warehouse).
  warehouse_bucket = var.catalog_warehouse == null ? null : regex("^s3a?://([^/]+)", var.catalog_warehouse)[0]
  read_buckets     = distinct(compact([var.data_bucket, local.warehouse_bucket]))

  # The catalog secret reaches Shelfmark as the environment variable that overrides the
  # declared, empty catalog property (see io.shelfmark.config.EnvironmentOverrides):
  # SHELFMARK_ + the key path upper-cased, with '.' and '-' as '_'.
  catalog_secret_property = coalesce(var.catalog_secret_property, var.catalog_type == "jdbc" ? "jdbc.password" : "credential")
  catalog_secret_env_var = var.catalog_secret_ssm_parameter == null ? "" : upper(
    replace(replace("SHELFMARK_catalog.properties.${local.catalog_secret_property}", ".", "_"), "-", "_")
  )
  catalog_properties = merge(
    var.catalog_properties,
    var.catalog_secret_ssm_parameter == null ? {} : { (local.catalog_secret_property) = "" },
  )
  catalog_secret_parameter_arn = var.catalog_secret_ssm_parameter == null ? null : (
    "arn:${local.partition}:ssm:${var.region}:${local.account}:parameter/${trimprefix(var.catalog_secret_ssm_parameter, "/")}"
  )

  data_dir = "/var/lib/shelfmark"

  # Settings both kinds of node share; rendered into cluster.yaml by templates/cluster.yaml.tftpl.
  cluster_settings = {
    cluster_name         = var.cluster_name
    broker_http_port     = var.broker_http_port
    server_rpc_port      = var.server_rpc_port
    controller_http_port = var.controller_http_port
    region               = var.region
    catalog_type         = var.catalog_type
    catalog_name         = var.catalog_name
    catalog_uri          = var.catalog_uri
    catalog_warehouse    = var.catalog_warehouse
    catalog_properties   = local.catalog_properties
    segment_store        = local.segment_store
    data_dir             = local.data_dir
  }

  # Settings of the boot script both kinds of node share.
  boot_settings = {
    region                       = var.region
    jdk_package                  = var.jdk_package
    shelfmark_version            = var.shelfmark_version
    artifact_url                 = var.artifact_url
    data_dir                     = local.data_dir
    catalog_secret_ssm_parameter = coalesce(var.catalog_secret_ssm_parameter, "")
    catalog_secret_env_var       = local.catalog_secret_env_var
  }
}
