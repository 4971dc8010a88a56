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

# Every taggable resource gets these tags from the provider, plus its own Name.
provider "aws" {
  region = var.region

  default_tags {
    tags = local.common_tags
  }
}
