locals {
  # Values the boot script uses as shell words, single-quoted so that no character in them is
  # interpreted by the shell.
  boot_shell_words = { for name, value in local.boot_settings : name => "'${replace(value, "'", "'\\''")}'" }

  coordinator_roles = ["controller", "broker"]
  server_roles      = ["server"]

  coordinator_cluster_yaml = templatefile("${path.module}/templates/cluster.yaml.tftpl", merge(local.cluster_settings, {
    roles                 = local.coordinator_roles
    cache_memory_max_size = var.coordinator_cache_memory_max_size
    cache_disk_max_size   = var.coordinator_cache_disk_max_size
  }))

  server_cluster_yaml = templatefile("${path.module}/templates/cluster.yaml.tftpl", merge(local.cluster_settings, {
    roles                 = local.server_roles
    cache_memory_max_size = var.server_cache_memory_max_size
    cache_disk_max_size   = var.server_cache_disk_max_size
  }))
}

resource "aws_instance" "coordinator" {
  ami                    = local.ami_id
  instance_type          = var.coordinator_instance_type
  subnet_id              = var.subnet_ids[0]
  vpc_security_group_ids = [aws_security_group.cluster.id, aws_security_group.broker.id]
  iam_instance_profile   = aws_iam_instance_profile.node.name
  key_name               = var.key_name

  user_data = templatefile("${path.module}/templates/user-data.sh.tftpl", {
    node_kind      = "coordinator"
    q              = local.boot_shell_words
    data_dir       = local.data_dir
    nvme           = false
    cluster_yaml   = local.coordinator_cluster_yaml
    extra_comments = []
    heaps = {
      controller = var.controller_heap
      broker     = var.broker_heap
    }
  })
  # The boot script runs once per instance, so a changed configuration needs a new instance
  # (an in-place update would only stop and start the old one with its old files).
  user_data_replace_on_change = true

  metadata_options {
    http_tokens                 = "required"
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = var.coordinator_root_volume_gib
    encrypted   = true
  }

  tags = {
    Name                = "${var.cluster_name}-coordinator"
    "shelfmark:roles"   = join(",", local.coordinator_roles)
    "shelfmark:version" = var.shelfmark_version
  }

  lifecycle {
    # A newer AMI alone does not replace the cluster; set var.ami_id to roll the OS on purpose.
    ignore_changes = [ami]

    precondition {
      condition     = contains(data.aws_ec2_instance_type.coordinator.supported_architectures, "arm64")
      error_message = "coordinator_instance_type ${var.coordinator_instance_type} is not arm64 (Graviton); the AMI is arm64."
    }
  }

  depends_on = [aws_iam_role_policy.node]
}

resource "aws_instance" "server" {
  count = var.server_count

  ami                    = local.ami_id
  instance_type          = var.server_instance_type
  subnet_id              = var.subnet_ids[count.index % length(var.subnet_ids)]
  vpc_security_group_ids = [aws_security_group.cluster.id]
  iam_instance_profile   = aws_iam_instance_profile.node.name
  key_name               = var.key_name

  user_data = templatefile("${path.module}/templates/user-data.sh.tftpl", {
    node_kind    = "server"
    q            = local.boot_shell_words
    data_dir     = local.data_dir
    nvme         = true
    cluster_yaml = local.server_cluster_yaml
    # cluster.yaml has no key for the controller's address yet; recorded here for operators
    # until the distributed-cluster work defines how servers find the controller.
    extra_comments = [
      "'# Controller: ${aws_instance.coordinator.private_ip}:${var.controller_http_port} (no cluster.yaml key for it yet).'",
    ]
    heaps = {
      server = var.server_heap
    }
  })
  user_data_replace_on_change = true

  metadata_options {
    http_tokens                 = "required"
    http_endpoint               = "enabled"
    http_put_response_hop_limit = 1
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = var.server_root_volume_gib
    encrypted   = true
  }

  tags = {
    Name                = "${var.cluster_name}-server-${count.index + 1}"
    "shelfmark:roles"   = join(",", local.server_roles)
    "shelfmark:version" = var.shelfmark_version
  }

  lifecycle {
    ignore_changes = [ami]

    precondition {
      condition     = contains(data.aws_ec2_instance_type.server.supported_architectures, "arm64")
      error_message = "server_instance_type ${var.server_instance_type} is not arm64 (Graviton); the AMI is arm64."
    }

    precondition {
      condition     = data.aws_ec2_instance_type.server.instance_storage_supported
      error_message = "server_instance_type ${var.server_instance_type} has no instance storage; servers need NVMe instance storage (e.g. r6gd.4xlarge)."
    }
  }

  depends_on = [aws_iam_role_policy.node]
}
