# The coordinator: one instance running ZooKeeper, the controller and the broker (the bootstrap
# installs and enables them). Its address is its pre-created network interface's.

# cloud-init unpacks gzipped user data: compressed, the bootstrap script fits EC2's 16 KB limit
# with room to spare (docs/deploy.md, "First boot").
locals {
  user_data_gzip = base64gzip(var.user_data)
}

data "aws_ec2_instance_type" "this" {
  instance_type = var.instance_type
}

resource "aws_instance" "this" {
  ami                  = var.ami_id
  instance_type        = var.instance_type
  iam_instance_profile = var.instance_profile_name
  key_name             = var.key_name
  user_data_base64     = local.user_data_gzip

  network_interface {
    network_interface_id = var.network_interface_id
    device_index         = 0
  }

  metadata_options {
    http_tokens                 = "required"
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = var.root_volume_gib
    encrypted   = true
    tags        = merge(var.tags, { Name = "${var.name}-coordinator" })
  }

  tags = {
    Name                = "${var.name}-coordinator"
    "shelfmark:role"    = "coordinator"
    "shelfmark:version" = var.version_tag
  }

  lifecycle {
    # The user data runs once, at first boot: a new version or setting takes effect when the
    # instance is replaced on purpose (terraform apply -replace=...), never by surprise. So
    # neither a changed user data nor a newer AMI replaces it, and the version tag keeps saying
    # what it was created with.
    ignore_changes = [ami, user_data_base64, tags["shelfmark:version"]]

    precondition {
      condition     = contains(data.aws_ec2_instance_type.this.supported_architectures, "arm64")
      error_message = "Cannot use coordinator_instance_type ${var.instance_type}: it is not arm64 (use a Graviton type such as m7g.xlarge; the AMI is arm64)."
    }

    precondition {
      # EC2 takes 16384 bytes of user data before base64; the gzip bytes are 3/4 of the base64.
      condition     = length(local.user_data_gzip) / 4 * 3 <= 16384
      error_message = "Cannot create the coordinator: the gzipped user data is about ${floor(length(local.user_data_gzip) / 4 * 3)} bytes, over EC2's 16384 (shorten catalog_properties or the bootstrap script)."
    }
  }
}
