# Shelfmark's reference deployment: 1 coordinator (ZooKeeper, controller, broker) and
# server_count servers on Graviton, next to an existing lakehouse. The modules:
#   network     - the VPC (existing or new), security groups, the coordinator's network interface
#   iam         - the members' least-privilege role and instance profile
#   coordinator - the coordinator instance
#   servers     - the server instances
# Every member boots the same way: its user data writes /etc/shelfmark/bootstrap.env from the
# settings below, then runs deploy/bootstrap/shelfmark-bootstrap.sh (docs/deploy.md).

data "aws_partition" "current" {}

data "aws_caller_identity" "current" {}

# The newest Amazon Linux 2023 arm64 AMI (the "minimal" images, al2023-ami-minimal-*, do not match).
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

locals {
  ami_id = coalesce(var.ami_id, data.aws_ami.al2023_arm64.id)

  common_tags = merge(var.tags, {
    "shelfmark:cluster" = var.cluster_name
    "managed-by"        = "terraform"
  })

  # The catalog secret reaches Shelfmark as the environment variable that overrides the
  # declared, empty catalog property (io.shelfmark.config.EnvironmentOverrides):
  # SHELFMARK_CATALOG_PROPERTIES_ + the property upper-cased, '.' and '-' as '_'.
  catalog_secret_property = coalesce(var.catalog_secret_property, var.catalog_type == "rest" ? "credential" : "jdbc.password")
  catalog_secret_env_var = var.catalog_secret_ssm_parameter == null ? "" : upper(
    replace(replace("SHELFMARK_CATALOG_PROPERTIES_${local.catalog_secret_property}", ".", "_"), "-", "_")
  )
  catalog_properties = merge(
    var.catalog_properties,
    var.catalog_type == "glue" && var.glue_catalog_id != null ? { "glue.id" = var.glue_catalog_id } : {},
    var.catalog_secret_ssm_parameter == null ? {} : { (local.catalog_secret_property) = "" },
  )

  zookeeper_connect = coalesce(var.zookeeper_connect, "${module.network.coordinator_private_ip}:${var.zookeeper_port}")

  # bootstrap.env of every member (the contract with deploy/bootstrap/shelfmark-bootstrap.sh);
  # SHELFMARK_NODE_KIND and SHELFMARK_HOST are added per kind.
  bootstrap_env = {
    SHELFMARK_INSTALL_SYSTEM               = "true"
    SHELFMARK_DIST_URL                     = var.dist_url
    SHELFMARK_VERSION                      = var.shelfmark_version
    SHELFMARK_CLUSTER_NAME                 = var.cluster_name
    SHELFMARK_ZOOKEEPER_CONNECT            = local.zookeeper_connect
    SHELFMARK_ZOOKEEPER_PORT               = tostring(var.zookeeper_port)
    SHELFMARK_BROKER_HTTP_PORT             = tostring(var.broker_http_port)
    SHELFMARK_BROKER_FLIGHT_PORT           = tostring(var.broker_flight_port)
    SHELFMARK_CONTROLLER_HTTP_PORT         = tostring(var.controller_http_port)
    SHELFMARK_SERVER_RPC_PORT              = tostring(var.server_rpc_port)
    SHELFMARK_STORAGE_REGION               = var.region
    SHELFMARK_CATALOG_TYPE                 = var.catalog_type
    SHELFMARK_CATALOG_NAME                 = var.catalog_name
    SHELFMARK_CATALOG_URI                  = coalesce(var.catalog_uri, "")
    SHELFMARK_CATALOG_WAREHOUSE            = coalesce(var.catalog_warehouse, "")
    SHELFMARK_CATALOG_PROPERTIES_JSON      = length(local.catalog_properties) == 0 ? "" : jsonencode(local.catalog_properties)
    SHELFMARK_CATALOG_SECRET_SSM_PARAMETER = coalesce(var.catalog_secret_ssm_parameter, "")
    SHELFMARK_CATALOG_SECRET_ENV_VAR       = local.catalog_secret_env_var
    SHELFMARK_SEGMENT_STORE                = "${trimsuffix(var.segment_store, "/")}/"
  }

  bootstrap_script = file("${path.module}/../bootstrap/shelfmark-bootstrap.sh")

  coordinator_user_data = templatefile("${path.module}/templates/user-data.sh.tftpl", {
    node_kind = "coordinator"
    env = merge(local.bootstrap_env, {
      SHELFMARK_NODE_KIND = "coordinator"
      SHELFMARK_HOST      = module.network.coordinator_private_ip
    })
    bootstrap_script = local.bootstrap_script
  })

  server_user_data = templatefile("${path.module}/templates/user-data.sh.tftpl", {
    node_kind = "server"
    env = merge(local.bootstrap_env, {
      SHELFMARK_NODE_KIND = "server"
      SHELFMARK_HOST      = "" # each server discovers its own address (IMDSv2)
    })
    bootstrap_script = local.bootstrap_script
  })
}

module "network" {
  source = "./modules/network"

  name                        = var.cluster_name
  region                      = var.region
  vpc_id                      = var.vpc_id
  subnet_ids                  = var.subnet_ids
  vpc_cidr                    = var.vpc_cidr
  availability_zone_count     = var.availability_zone_count
  enable_nat_gateway          = var.enable_nat_gateway
  interface_endpoint_services = distinct(concat(var.interface_endpoint_services, var.catalog_type == "glue" ? ["glue"] : []))
  client_cidrs                = var.allowed_cidrs
  ssh_cidrs                   = var.ssh_allowed_cidrs

  client_ports = {
    http   = var.broker_http_port
    flight = var.broker_flight_port
  }

  internal_ports = {
    zookeeper  = var.zookeeper_port
    server-rpc = var.server_rpc_port
    controller = var.controller_http_port
  }
}

module "iam" {
  source = "./modules/iam"

  name                         = var.cluster_name
  partition                    = data.aws_partition.current.partition
  region                       = var.region
  account_id                   = data.aws_caller_identity.current.account_id
  table_locations              = var.table_locations
  segment_store                = var.segment_store
  dist_url                     = var.dist_url
  catalog_type                 = var.catalog_type
  glue_catalog_id              = var.glue_catalog_id
  glue_databases               = var.glue_databases
  catalog_secret_ssm_parameter = var.catalog_secret_ssm_parameter
  catalog_secret_kms_key_arn   = var.catalog_secret_kms_key_arn
  enable_ssm_session_manager   = var.enable_ssm_session_manager
}

module "coordinator" {
  source = "./modules/coordinator"

  name                  = var.cluster_name
  ami_id                = local.ami_id
  instance_type         = var.coordinator_instance_type
  network_interface_id  = module.network.coordinator_network_interface_id
  instance_profile_name = module.iam.instance_profile_name
  key_name              = var.key_name
  user_data             = local.coordinator_user_data
  root_volume_gib       = var.coordinator_root_volume_gib
  tags                  = local.common_tags
  version_tag           = var.shelfmark_version

  # Boot with the permissions in place: the bootstrap reads the tarball and the secret at once.
  depends_on = [module.iam]
}

module "servers" {
  source = "./modules/servers"

  name                  = var.cluster_name
  server_count          = var.server_count
  ami_id                = local.ami_id
  instance_type         = var.server_instance_type
  subnet_ids            = module.network.subnet_ids
  security_group_ids    = [module.network.cluster_security_group_id]
  instance_profile_name = module.iam.instance_profile_name
  key_name              = var.key_name
  user_data             = local.server_user_data
  root_volume_gib       = var.server_root_volume_gib
  tags                  = local.common_tags
  version_tag           = var.shelfmark_version

  depends_on = [module.iam]
}
