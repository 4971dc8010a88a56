variable "name" {
  description = "Prefix of the instance's Name tag (the cluster name)."
  type        = string
}

variable "ami_id" {
  description = "arm64 Amazon Linux 2023 AMI."
  type        = string
}

variable "instance_type" {
  description = "Graviton instance type of the coordinator (ZooKeeper, controller, broker)."
  type        = string
}

variable "network_interface_id" {
  description = "The coordinator's primary network interface (carries its subnet, security groups and fixed address)."
  type        = string
}

variable "instance_profile_name" {
  description = "Instance profile the coordinator runs with."
  type        = string
}

variable "key_name" {
  description = "EC2 key pair for SSH; null for none."
  type        = string
  default     = null
}

variable "user_data" {
  description = "Rendered first-boot script (writes bootstrap.env, runs the bootstrap); passed gzipped, at most 16384 bytes so."
  type        = string
}

variable "root_volume_gib" {
  description = "Size of the gp3 root volume in GiB (OS, distribution, ZooKeeper data, logs, cache)."
  type        = number
}

variable "tags" {
  description = "Tags of the root volume (provider default_tags do not reach volumes created through root_block_device)."
  type        = map(string)
  default     = {}
}

variable "version_tag" {
  description = "Shelfmark version the instance was created with (the shelfmark:version tag)."
  type        = string
}
