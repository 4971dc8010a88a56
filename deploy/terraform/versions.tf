terraform {
  # 1.9 for variable validations that refer to other variables.
  required_version = ">= 1.9"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.40, < 7.0"
    }
  }
}

provider "aws" {
  region = var.region

  default_tags {
    tags = merge(var.tags, {
      "shelfmark:cluster" = var.cluster_name
      "managed-by"        = "terraform"
    })
  }
}
