variable "name" {
  description = "Prefix of every resource name (the cluster name)."
  type        = string
}

variable "vpc_id" {
  description = "Existing VPC to deploy into; null creates a new VPC with private subnets."
  type        = string
  default     = null
}

variable "subnet_ids" {
  description = "Private subnets of vpc_id. Ignored (and must be empty) when a new VPC is created."
  type        = list(string)
  default     = []
}

variable "vpc_cidr" {
  description = "IPv4 CIDR block of the new VPC (when vpc_id is null)."
  type        = string
  default     = "10.42.0.0/16"
}

variable "availability_zone_count" {
  description = "Number of availability zones, one private subnet each, of the new VPC."
  type        = number
  default     = 2
}

variable "enable_nat_gateway" {
  description = "Give the new VPC's private subnets a route to the internet through one NAT gateway (needed for a catalog or tarball outside AWS)."
  type        = bool
  default     = false
}

variable "interface_endpoint_services" {
  description = "AWS services (such as ssm, glue) reached through interface VPC endpoints from the new VPC; S3 always gets a gateway endpoint."
  type        = list(string)
  default     = []
}

variable "region" {
  description = "AWS region, for the VPC endpoint service names."
  type        = string
}

variable "client_ports" {
  description = "Ports of the broker that clients in client_cidrs reach (HTTP SQL and Flight SQL), by name."
  type        = map(number)
}

variable "internal_ports" {
  description = "Ports only cluster members reach (ZooKeeper, server RPC, controller admin), by name."
  type        = map(number)
}

variable "client_cidrs" {
  description = "IPv4 CIDR blocks allowed to the client ports."
  type        = list(string)
}

variable "ssh_cidrs" {
  description = "IPv4 CIDR blocks allowed to SSH (22) to every member; empty opens no SSH port."
  type        = list(string)
  default     = []
}
