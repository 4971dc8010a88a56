# Two security groups:
#   cluster - on every instance; the broker, controller and server ports are open only to
#             other members of this group (intra-cluster traffic).
#   broker  - on the coordinator only; the broker's HTTP SQL port from var.allowed_cidrs.
# Egress is open: the instances reach S3, SSM, the catalog and the package repositories.

resource "aws_security_group" "cluster" {
  name        = "${var.cluster_name}-cluster"
  description = "Shelfmark ${var.cluster_name}: traffic between cluster members"
  vpc_id      = var.vpc_id

  tags = {
    Name = "${var.cluster_name}-cluster"
  }
}

resource "aws_vpc_security_group_ingress_rule" "intra_cluster" {
  for_each = {
    broker     = var.broker_http_port
    controller = var.controller_http_port
    server     = var.server_rpc_port
  }

  security_group_id            = aws_security_group.cluster.id
  referenced_security_group_id = aws_security_group.cluster.id
  ip_protocol                  = "tcp"
  from_port                    = each.value
  to_port                      = each.value
  description                  = "Shelfmark ${each.key} port from cluster members"
}

resource "aws_vpc_security_group_ingress_rule" "ssh" {
  for_each = toset(var.ssh_allowed_cidrs)

  security_group_id = aws_security_group.cluster.id
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  description       = "SSH from ${each.value}"
}

resource "aws_vpc_security_group_egress_rule" "cluster_all" {
  security_group_id = aws_security_group.cluster.id
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "-1"
  description       = "S3, SSM, Iceberg catalog, package repositories"
}

resource "aws_security_group" "broker" {
  name        = "${var.cluster_name}-broker"
  description = "Shelfmark ${var.cluster_name}: broker HTTP SQL API for clients"
  vpc_id      = var.vpc_id

  tags = {
    Name = "${var.cluster_name}-broker"
  }
}

resource "aws_vpc_security_group_ingress_rule" "broker_clients" {
  for_each = toset(var.allowed_cidrs)

  security_group_id = aws_security_group.broker.id
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = var.broker_http_port
  to_port           = var.broker_http_port
  description       = "Shelfmark broker HTTP from ${each.value}"
}
