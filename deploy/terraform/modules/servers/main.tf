# The servers: each pins the segments of the files assigned to it on its NVMe instance storage
# (formatted and mounted by the bootstrap, not here) and answers plan fragments.

# cloud-init unpacks gzipped user data: compressed, the bootstrap script fits EC2's 16 KB limit
# with room to spare (docs/deploy.md, "First boot").
locals {
  user_data_gzip = base64gzip(var.user_data)
}

data "aws_ec2_instance_type" "this" {
  instance_type = var.instance_type
}

resource "aws_instance" "this" {
  count = var.server_count

  ami                    = var.ami_id
  instance_type          = var.instance_type
  subnet_id              = var.subnet_ids[count.index % length(var.subnet_ids)]
  vpc_security_group_ids = var.security_group_ids
  iam_instance_profile   = var.instance_profile_name
  key_name               = var.key_name
  user_data_base64       = local.user_data_gzip

  metadata_options {
    http_tokens                 = "required"
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = var.root_volume_gib
    encrypted   = true
    tags        = merge(var.tags, { Name = "${var.name}-server-${count.index + 1}" })
  }

  tags = {
    Name                = "${var.name}-server-${count.index + 1}"
    "shelfmark:role"    = "server"
    "shelfmark:version" = var.version_tag
  }

  lifecycle {
    # Upgrades are rolling and deliberate: terraform apply -replace='module.servers.aws_instance.this[N]'
    # one server at a time (docs/deploy.md). A changed user data or a newer AMI alone replaces
    # nothing, so that no apply takes every server down at once.
    ignore_changes = [ami, user_data_base64, tags["shelfmark:version"]]

    precondition {
      condition     = contains(data.aws_ec2_instance_type.this.supported_architectures, "arm64")
      error_message = "Cannot use server_instance_type ${var.instance_type}: it is not arm64 (use a Graviton type such as r6gd.4xlarge; the AMI is arm64)."
    }

    precondition {
      condition     = data.aws_ec2_instance_type.this.instance_storage_supported
      error_message = "Cannot use server_instance_type ${var.instance_type}: it has no instance storage (servers keep pinned segments on NVMe; use a *gd type such as r6gd.4xlarge)."
    }

    precondition {
      # EC2 takes 16384 bytes of user data before base64; the gzip bytes are 3/4 of the base64.
      condition     = length(local.user_data_gzip) / 4 * 3 <= 16384
      error_message = "Cannot create the servers: the gzipped user data is about ${floor(length(local.user_data_gzip) / 4 * 3)} bytes, over EC2's 16384 (shorten catalog_properties or the bootstrap script)."
    }
  }
}
