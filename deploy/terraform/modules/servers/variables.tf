variable "name" {
  description = "Prefix of the instances' Name tags (the cluster name)."
  type        = string
}

variable "server_count" {
  description = "Number of servers."
  type        = number
}

variable "ami_id" {
  description = "arm64 Amazon Linux 2023 AMI."
  type        = string
}

variable "instance_type" {
  description = "Graviton instance type with NVMe instance storage (the bootstrap mounts it as the data directory)."
  type        = string
}

variable "subnet_ids" {
  description = "Private subnets; servers are spread over them in order."
  type        = list(string)
}

variable "security_group_ids" {
  description = "Security groups of every server (the cluster group)."
  type        = list(string)
}

variable "instance_profile_name" {
  description = "Instance profile the servers run with."
  type        = string
}

variable "key_name" {
  description = "EC2 key pair for SSH; null for none."
  type        = string
  default     = null
}

variable "user_data" {
  description = "Rendered first-boot script, the same for every server (each discovers its own address); passed gzipped, at most 16384 bytes so."
  type        = string
}

variable "root_volume_gib" {
  description = "Size of the gp3 root volume in GiB (OS, distribution, logs; data lives on NVMe)."
  type        = number
}

variable "tags" {
  description = "Tags of the root volumes (provider default_tags do not reach volumes created through root_block_device)."
  type        = map(string)
  default     = {}
}

variable "version_tag" {
  description = "Shelfmark version each instance was created with (the shelfmark:version tag)."
  type        = string
}
