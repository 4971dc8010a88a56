# One role for every member, least privilege: read the tables' prefixes, read and write the
# segment store's prefix, read the tarball object, read the catalog secret, and read Glue's
# catalog, databases and tables only when the catalog is Glue. Nothing else.

locals {
  # s3://bucket/some/prefix/ -> { bucket, prefix } with the prefix free of surrounding '/'.
  table_locations = [
    for url in var.table_locations : {
      bucket = regex("^s3a?://([^/]+)", url)[0]
      prefix = trim(replace(url, "/^s3a?://[^/]+/", ""), "/")
    }
  ]
  segment_bucket = regex("^s3a?://([^/]+)", var.segment_store)[0]
  segment_prefix = trim(replace(var.segment_store, "/^s3a?://[^/]+/", ""), "/")
  dist_object    = startswith(var.dist_url, "s3://") ? trimprefix(var.dist_url, "s3://") : null

  glue            = var.catalog_type == "glue"
  glue_catalog_id = coalesce(var.glue_catalog_id, var.account_id)
  glue_arn        = "arn:${var.partition}:glue:${var.region}:${local.glue_catalog_id}"

  secret_parameter_arn = var.catalog_secret_ssm_parameter == null ? null : (
    "arn:${var.partition}:ssm:${var.region}:${var.account_id}:parameter/${trimprefix(var.catalog_secret_ssm_parameter, "/")}"
  )
}

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
  name               = "${var.name}-node"
  description        = "Shelfmark ${var.name} coordinator and servers"
  assume_role_policy = data.aws_iam_policy_document.assume_ec2.json

  tags = {
    Name = "${var.name}-node"
  }
}

resource "aws_iam_instance_profile" "node" {
  name = "${var.name}-node"
  role = aws_iam_role.node.name

  tags = {
    Name = "${var.name}-node"
  }
}

data "aws_iam_policy_document" "node" {
  # Listing is granted per prefix (s3:prefix condition), reading per prefix's objects.
  dynamic "statement" {
    for_each = local.table_locations

    content {
      sid       = "ListTable${statement.key}"
      actions   = ["s3:ListBucket"]
      resources = ["arn:${var.partition}:s3:::${statement.value.bucket}"]

      # An empty prefix (a whole bucket) lists everything: no condition then.
      dynamic "condition" {
        for_each = statement.value.prefix == "" ? [] : [statement.value.prefix]

        content {
          test     = "StringLike"
          variable = "s3:prefix"
          values   = [condition.value, "${condition.value}/*"]
        }
      }
    }
  }

  statement {
    sid       = "ReadTables"
    actions   = ["s3:GetObject"]
    resources = [for location in local.table_locations : "arn:${var.partition}:s3:::${location.bucket}/${location.prefix == "" ? "" : "${location.prefix}/"}*"]
  }

  statement {
    sid       = "ListSegments"
    actions   = ["s3:ListBucket"]
    resources = ["arn:${var.partition}:s3:::${local.segment_bucket}"]

    condition {
      test     = "StringLike"
      variable = "s3:prefix"
      values   = [local.segment_prefix, "${local.segment_prefix}/*"]
    }
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
    resources = ["arn:${var.partition}:s3:::${local.segment_bucket}/${local.segment_prefix}/*"]
  }

  dynamic "statement" {
    for_each = local.dist_object == null ? [] : [local.dist_object]

    content {
      sid       = "ReadDistribution"
      actions   = ["s3:GetObject"]
      resources = ["arn:${var.partition}:s3:::${statement.value}"]
    }
  }

  # What iceberg-aws's GlueCatalog calls to list and load tables; no write action.
  dynamic "statement" {
    for_each = local.glue ? [local.glue_arn] : []

    content {
      sid     = "ReadGlueCatalog"
      actions = ["glue:GetDatabase", "glue:GetDatabases", "glue:GetTable", "glue:GetTables"]
      resources = concat(
        ["${statement.value}:catalog"],
        [for database in var.glue_databases : "${statement.value}:database/${database}"],
        [for database in var.glue_databases : "${statement.value}:table/${database}/*"],
      )
    }
  }

  dynamic "statement" {
    for_each = local.secret_parameter_arn == null ? [] : [local.secret_parameter_arn]

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
  policy_arn = "arn:${var.partition}:iam::aws:policy/AmazonSSMManagedInstanceCore"
}
