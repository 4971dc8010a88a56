# One role for every instance: read the lake, read/write/delete under the segment prefix, read
# the distribution tarball and the catalog secret. Nothing else.

data "aws_iam_policy_document" "assume_ec2" {
  statement {
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["ec2.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "node" {
  name               = "${var.cluster_name}-node"
  description        = "Shelfmark ${var.cluster_name} coordinator and servers"
  assume_role_policy = data.aws_iam_policy_document.assume_ec2.json
}

resource "aws_iam_instance_profile" "node" {
  name = "${var.cluster_name}-node"
  role = aws_iam_role.node.name
}

data "aws_iam_policy_document" "node" {
  statement {
    sid       = "ListLake"
    actions   = ["s3:ListBucket", "s3:GetBucketLocation"]
    resources = [for bucket in local.read_buckets : "arn:${local.partition}:s3:::${bucket}"]
  }

  statement {
    sid       = "ReadLake"
    actions   = ["s3:GetObject", "s3:GetObjectVersion"]
    resources = [for bucket in local.read_buckets : "arn:${local.partition}:s3:::${bucket}/*"]
  }

  statement {
    sid       = "ListSegments"
    actions   = ["s3:ListBucket"]
    resources = ["arn:${local.partition}:s3:::${var.segment_bucket}"]

    condition {
      test     = "StringLike"
      variable = "s3:prefix"
      values   = [var.segment_prefix, "${var.segment_prefix}/*"]
    }
  }

  statement {
    sid       = "SegmentBucketLocation"
    actions   = ["s3:GetBucketLocation"]
    resources = ["arn:${local.partition}:s3:::${var.segment_bucket}"]
  }

  statement {
    sid = "ReadWriteSegments"
    actions = [
      "s3:GetObject",
      "s3:PutObject",
      "s3:DeleteObject",
      "s3:AbortMultipartUpload",
      "s3:ListMultipartUploadParts",
    ]
    resources = ["arn:${local.partition}:s3:::${var.segment_bucket}/${var.segment_prefix}/*"]
  }

  statement {
    sid       = "ReadDistribution"
    actions   = ["s3:GetObject"]
    resources = ["arn:${local.partition}:s3:::${local.artifact_bucket}/${local.artifact_key}"]
  }

  dynamic "statement" {
    for_each = local.catalog_secret_parameter_arn == null ? [] : [local.catalog_secret_parameter_arn]

    content {
      sid       = "ReadCatalogSecret"
      actions   = ["ssm:GetParameter"]
      resources = [statement.value]
    }
  }

  dynamic "statement" {
    for_each = var.catalog_secret_kms_key_arn == null ? [] : [var.catalog_secret_kms_key_arn]

    content {
      sid       = "DecryptCatalogSecret"
      actions   = ["kms:Decrypt"]
      resources = [statement.value]

      condition {
        test     = "StringEquals"
        variable = "kms:ViaService"
        values   = ["ssm.${var.region}.amazonaws.com"]
      }
    }
  }
}

resource "aws_iam_role_policy" "node" {
  name   = "shelfmark-storage-and-catalog"
  role   = aws_iam_role.node.id
  policy = data.aws_iam_policy_document.node.json
}

resource "aws_iam_role_policy_attachment" "ssm_core" {
  count = var.enable_ssm_session_manager ? 1 : 0

  role       = aws_iam_role.node.name
  policy_arn = "arn:${local.partition}:iam::aws:policy/AmazonSSMManagedInstanceCore"
}
