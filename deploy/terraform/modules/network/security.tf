# Two security groups:
#   cluster - on every member; the internal ports (ZooKeeper, server RPC, controller admin) are
#             open only to members of this same group (a self reference, never a CIDR).
#   clients - on the coordinator only; the broker's client ports from var.client_cidrs.
# Egress is open: members reach S3, SSM, Glue, the catalog and the package repositories.

resource "aws_security_group" "cluster" {
  name        = "${var.name}-cluster"
  description = "Shelfmark ${var.name}: traffic between cluster members"
  vpc_id      = local.vpc_id

  tags = {
    Name = "${var.name}-cluster"
  }
}

resource "aws_vpc_security_group_ingress_rule" "internal" {
  for_each = var.internal_ports

  security_group_id            = aws_security_group.cluster.id
  referenced_security_group_id = aws_security_group.cluster.id
  ip_protocol                  = "tcp"
  from_port                    = each.value
  to_port                      = each.value
  description                  = "Shelfmark ${each.key} from cluster members"

  tags = {
    Name = "${var.name}-${each.key}"
  }
}

resource "aws_vpc_security_group_ingress_rule" "ssh" {
  for_each = toset(var.ssh_cidrs)

  security_group_id = aws_security_group.cluster.id
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  description       = "SSH from ${each.value}"

  tags = {
    Name = "${var.name}-ssh"
  }
}

resource "aws_vpc_security_group_egress_rule" "cluster_all" {
  security_group_id = aws_security_group.cluster.id
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "-1"
  description       = "S3, SSM, Glue, the Iceberg catalog, package repositories"

  tags = {
    Name = "${var.name}-egress"
  }
}

resource "aws_security_group" "clients" {
  name        = "${var.name}-clients"
  description = "Shelfmark ${var.name}: the broker's client ports"
  vpc_id      = local.vpc_id

  tags = {
    Name = "${var.name}-clients"
  }
}

resource "aws_vpc_security_group_ingress_rule" "clients" {
  # One rule per (port, CIDR) pair, keyed "http 10.0.0.0/16".
  for_each = {
    for pair in setproduct(keys(var.client_ports), var.client_cidrs) : "${pair[0]} ${pair[1]}" => {
      port = var.client_ports[pair[0]]
      cidr = pair[1]
    }
  }

  security_group_id = aws_security_group.clients.id
  cidr_ipv4         = each.value.cidr
  ip_protocol       = "tcp"
  from_port         = each.value.port
  to_port           = each.value.port
  description       = "Shelfmark broker ${each.key}"

  tags = {
    Name = "${var.name}-clients"
  }
}

# The coordinator's primary network interface, created before the instance so that its address
# is known when the user data is rendered (every member's ZooKeeper connect string) and survives
# a replacement of the coordinator instance.
resource "aws_network_interface" "coordinator" {
  subnet_id       = local.subnet_ids[0]
  security_groups = [aws_security_group.cluster.id, aws_security_group.clients.id]
  description     = "Shelfmark ${var.name} coordinator"

  tags = {
    Name = "${var.name}-coordinator"
  }
}
