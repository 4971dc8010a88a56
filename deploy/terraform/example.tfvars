# Example inputs: copy to <env>.tfvars, replace every value, then
#   terraform plan -var-file=<env>.tfvars
# The catalog secret is NOT here: create it once in SSM, e.g.
#   aws ssm put-parameter --type SecureString --name /shelfmark/prod/catalog-password --value '...'

region     = "eu-west-1"
vpc_id     = "vpc-0123456789abcdef0"
subnet_ids = ["subnet-0123456789abcdef0", "subnet-0fedcba9876543210"]

# Who may query the broker (HTTP SQL on 8099).
allowed_cidrs = ["10.20.0.0/16"]

# Iceberg data (read-only) and Shelfmark's segments (read/write under the prefix).
data_bucket    = "acme-lakehouse"
segment_bucket = "acme-lakehouse"
segment_prefix = "_shelfmark/prod"

# The existing Iceberg catalog: here a JDBC catalog in PostgreSQL.
catalog_type      = "jdbc"
catalog_name      = "lake"
catalog_uri       = "jdbc:postgresql://iceberg-catalog.internal.acme.example:5432/iceberg"
catalog_warehouse = "s3://acme-lakehouse/warehouse"
catalog_properties = {
  "jdbc.user" = "shelfmark"
}
catalog_secret_ssm_parameter = "/shelfmark/prod/catalog-password" # fills catalog.properties.jdbc.password

# A REST catalog instead:
# catalog_type                 = "rest"
# catalog_uri                  = "https://catalog.acme.example/api/catalog"
# catalog_warehouse            = "s3://acme-lakehouse/warehouse"
# catalog_secret_ssm_parameter = "/shelfmark/prod/catalog-credential" # client_id:client_secret

# The distribution to install.
shelfmark_version = "0.1.0"
artifact_url      = "s3://acme-artifacts/shelfmark/shelfmark-0.1.0.tar.gz"

# Defaults, shown for reference.
# cluster_name              = "shelfmark"
# coordinator_instance_type = "m7g.xlarge"
# server_instance_type      = "r6gd.4xlarge"
# server_count              = 4
# key_name                  = null # prefer SSM Session Manager

tags = {
  team = "data-platform"
  env  = "prod"
}
