# The network a cluster runs in: an existing VPC's private subnets, or a new VPC with one private
# subnet per availability zone, an S3 gateway endpoint (segments, table data, the tarball and the
# Amazon Linux 2023 package repositories are all on S3), optional interface endpoints and an
# optional NAT gateway. Then the two security groups and the coordinator's network interface,
# whose fixed private address is the ZooKeeper and broker address every member is given.

locals {
  create_vpc = var.vpc_id == null
  vpc_id     = local.create_vpc ? aws_vpc.this[0].id : var.vpc_id
  subnet_ids = local.create_vpc ? aws_subnet.private[*].id : var.subnet_ids
}

data "aws_availability_zones" "available" {
  count = local.create_vpc ? 1 : 0
  state = "available"
}

resource "aws_vpc" "this" {
  count = local.create_vpc ? 1 : 0

  cidr_block           = var.vpc_cidr
  enable_dns_support   = true
  enable_dns_hostnames = true # interface endpoints with private DNS need both

  tags = {
    Name = var.name
  }
}

resource "aws_subnet" "private" {
  count = local.create_vpc ? var.availability_zone_count : 0

  vpc_id            = aws_vpc.this[0].id
  cidr_block        = cidrsubnet(var.vpc_cidr, 4, count.index)
  availability_zone = data.aws_availability_zones.available[0].names[count.index]

  tags = {
    Name = "${var.name}-private-${count.index + 1}"
  }
}

resource "aws_route_table" "private" {
  count = local.create_vpc ? 1 : 0

  vpc_id = aws_vpc.this[0].id

  tags = {
    Name = "${var.name}-private"
  }
}

resource "aws_route_table_association" "private" {
  count = local.create_vpc ? var.availability_zone_count : 0

  subnet_id      = aws_subnet.private[count.index].id
  route_table_id = aws_route_table.private[0].id
}

resource "aws_vpc_endpoint" "s3" {
  count = local.create_vpc ? 1 : 0

  vpc_id            = aws_vpc.this[0].id
  service_name      = "com.amazonaws.${var.region}.s3"
  vpc_endpoint_type = "Gateway"
  route_table_ids   = [aws_route_table.private[0].id]

  tags = {
    Name = "${var.name}-s3"
  }
}

resource "aws_security_group" "endpoints" {
  count = local.create_vpc && length(var.interface_endpoint_services) > 0 ? 1 : 0

  name        = "${var.name}-endpoints"
  description = "Shelfmark ${var.name}: HTTPS to the interface VPC endpoints from the VPC"
  vpc_id      = aws_vpc.this[0].id

  tags = {
    Name = "${var.name}-endpoints"
  }
}

resource "aws_vpc_security_group_ingress_rule" "endpoints_https" {
  count = local.create_vpc && length(var.interface_endpoint_services) > 0 ? 1 : 0

  security_group_id = aws_security_group.endpoints[0].id
  cidr_ipv4         = var.vpc_cidr
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
  description       = "HTTPS to the VPC endpoints from the VPC"

  tags = {
    Name = "${var.name}-endpoints-https"
  }
}

resource "aws_vpc_endpoint" "interface" {
  for_each = local.create_vpc ? toset(var.interface_endpoint_services) : toset([])

  vpc_id              = aws_vpc.this[0].id
  service_name        = "com.amazonaws.${var.region}.${each.key}"
  vpc_endpoint_type   = "Interface"
  subnet_ids          = aws_subnet.private[*].id
  security_group_ids  = [aws_security_group.endpoints[0].id]
  private_dns_enabled = true

  tags = {
    Name = "${var.name}-${each.key}"
  }
}

# Optional way out to the internet: one public subnet with a NAT gateway.
resource "aws_internet_gateway" "this" {
  count = local.create_vpc && var.enable_nat_gateway ? 1 : 0

  vpc_id = aws_vpc.this[0].id

  tags = {
    Name = var.name
  }
}

resource "aws_subnet" "public" {
  count = local.create_vpc && var.enable_nat_gateway ? 1 : 0

  vpc_id            = aws_vpc.this[0].id
  cidr_block        = cidrsubnet(var.vpc_cidr, 4, 15)
  availability_zone = data.aws_availability_zones.available[0].names[0]

  tags = {
    Name = "${var.name}-public"
  }
}

resource "aws_route_table" "public" {
  count = local.create_vpc && var.enable_nat_gateway ? 1 : 0

  vpc_id = aws_vpc.this[0].id

  tags = {
    Name = "${var.name}-public"
  }
}

resource "aws_route" "public_internet" {
  count = local.create_vpc && var.enable_nat_gateway ? 1 : 0

  route_table_id         = aws_route_table.public[0].id
  destination_cidr_block = "0.0.0.0/0"
  gateway_id             = aws_internet_gateway.this[0].id
}

resource "aws_route_table_association" "public" {
  count = local.create_vpc && var.enable_nat_gateway ? 1 : 0

  subnet_id      = aws_subnet.public[0].id
  route_table_id = aws_route_table.public[0].id
}

resource "aws_eip" "nat" {
  count = local.create_vpc && var.enable_nat_gateway ? 1 : 0

  domain = "vpc"

  tags = {
    Name = "${var.name}-nat"
  }
}

resource "aws_nat_gateway" "this" {
  count = local.create_vpc && var.enable_nat_gateway ? 1 : 0

  allocation_id = aws_eip.nat[0].id
  subnet_id     = aws_subnet.public[0].id

  tags = {
    Name = var.name
  }

  depends_on = [aws_internet_gateway.this]
}

resource "aws_route" "private_internet" {
  count = local.create_vpc && var.enable_nat_gateway ? 1 : 0

  route_table_id         = aws_route_table.private[0].id
  destination_cidr_block = "0.0.0.0/0"
  nat_gateway_id         = aws_nat_gateway.this[0].id
}
