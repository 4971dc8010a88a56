variable "name" {
  description = "Prefix of the role and instance profile names (the cluster name)."
  type        = string
}

variable "partition" {
  description = "AWS partition of the ARNs (aws, aws-cn, aws-us-gov)."
  type        = string
}

variable "region" {
  description = "AWS region of the Glue catalog and the SSM parameter."
  type        = string
}

variable "account_id" {
  description = "AWS account of the SSM parameter, and of the Glue catalog when glue_catalog_id is null."
  type        = string
}

variable "table_locations" {
  description = "s3:// prefixes of the tables' data and metadata, read only."
  type        = list(string)
}

variable "segment_store" {
  description = "s3:// prefix of the segment store, read and write."
  type        = string
}

variable "dist_url" {
  description = "Location of the distribution tarball; read access to exactly this object when it is an s3:// URL."
  type        = string
}

variable "catalog_type" {
  description = "Iceberg catalog type; Glue read actions are granted only for glue."
  type        = string
}

variable "glue_catalog_id" {
  description = "Glue catalog ID (an account ID); null means account_id."
  type        = string
  default     = null
}

variable "glue_databases" {
  description = "Glue databases whose tables Shelfmark reads (glue only)."
  type        = list(string)
  default     = []
}

variable "catalog_secret_ssm_parameter" {
  description = "Name of the SSM parameter holding the catalog secret; null grants no SSM read."
  type        = string
  default     = null
}

variable "catalog_secret_kms_key_arn" {
  description = "Customer-managed KMS key of that parameter; null when it uses aws/ssm."
  type        = string
  default     = null
}

variable "enable_ssm_session_manager" {
  description = "Attach AmazonSSMManagedInstanceCore so operators open shells through Session Manager."
  type        = bool
  default     = true
}
